"""The find bar: find across the home, and go to a line."""
