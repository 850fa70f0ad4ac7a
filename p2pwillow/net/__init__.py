"""The live table's network (DESIGN 6, SPEC 8): frames, replication, transport, discovery.

Only this package opens sockets; `wire`, `keys` and `replication` are pure and do no I/O.
"""
