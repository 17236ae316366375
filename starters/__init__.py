"""Starters: the kata's contracts with empty bodies, for candidates to copy."""
