"""Evaluation of the memory on generated scenes: run (offline or through the nodes), snapshot, score."""
