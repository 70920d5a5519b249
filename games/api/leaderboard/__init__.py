"""The public high-score table."""
