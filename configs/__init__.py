"""Run configs as package data: `default.yaml` (offline) and examples with real models."""
