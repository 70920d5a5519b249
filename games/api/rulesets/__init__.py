"""Rulesets: what each offers, the score calculator and the advice for any position."""
