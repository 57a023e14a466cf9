"""tempomem_ros: a persistent spatio-temporal object memory for ROS 2 robots.

The generated interfaces (``tempomem_ros.msg``, ``tempomem_ros.srv``) live in an installed copy of this
package while the Python sources may live in a source tree; extending ``__path__`` lets both halves import
as one package in a development environment.
"""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)

__version__ = "0.1.0"
