"""Replays by recorded test name, and the entries that are not replayed, each with its reason."""
REPLAYS = {}


def replays(test_name, *protocols):
    """Registers a replay; `protocols` limits it (the move tasks exist only in JSON)."""
    def register(function):
        REPLAYS[test_name] = (function, protocols or ("json", "query"))
        return function
    return register


# Entries not replayed, and why.
SKIPPED = {
}

# Labels of a replayed entry that are not compared, and why.
SKIPPED_LABELS = {
    ("test_move_task_cancel", "list-after"): "AWS went on moving for a while after CancelMessageMoveTask answered "
                                             "(8 of 10 moved by the next list); Lifeline stops at once, at the 2 that "
                                             "the cancel reported (docs/decisions.md)",
}
