"""The engine core: typed state, rules of play and scoring on ints.

Compiled with mypyc where a compiler exists; the same source runs as plain Python elsewhere.
"""
