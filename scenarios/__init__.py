"""The task catalog as package data: one YAML file per task type, plus `_domain.yaml`."""
