"""Export: the persona of the home in view written as another host's home, its plan shown first (issue 25)."""
