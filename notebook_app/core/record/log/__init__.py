"""The event log: events and their ids, the log file, snapshots, replay, who acted, secrets kept out."""
