"""What the kata's tests share: the rubric, the loader, oracles and messages."""
