"""The gradsh grammar, shipped as package data (see pyproject.toml)."""
