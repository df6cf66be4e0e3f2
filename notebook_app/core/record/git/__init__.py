"""Git as a record of writes: each write's commit, reading the commits back, and turning git on or off."""
