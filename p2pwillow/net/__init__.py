"""The live table's network (DESIGN 6, SPEC 8): frames, replication, transport, discovery, the
lobby that forms a table and the node that plays at it.

Only this package opens sockets; `wire`, `keys`, `replication` and `roster` are pure and do no
I/O; `worker` is the node's one session thread.
"""
