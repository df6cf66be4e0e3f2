"""Guard mode: the doctor's security rules on every agent write, and the tool a server runs in review and guard.

It sits above the doctor whose rules it applies (those rules read the memory files, so the memory tool
cannot hold it); loading it loads the rules, which only a server in guard mode does.
"""
