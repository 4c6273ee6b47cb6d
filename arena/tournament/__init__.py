"""The tournament layer's pure core: schedule, ratings, order confidence and the report schema.

Nothing here imports Textual, Rich, a model SDK or a game: the runner, the CLI and the app
call these functions with plain records.
"""
