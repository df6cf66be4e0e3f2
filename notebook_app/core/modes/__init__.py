"""How a server's memory tool runs on a home: review (proposals a person approves), guard (the
doctor's rules on every agent write), and the per-home settings that choose between them.
"""
