"""The tournament layer's pure core: schedule, ratings, order confidence and the report schema.

Nothing here imports Textual, Rich, a model SDK or a game: the runner, the CLI and the app
call these functions with plain records.
"""

import os

# Our matrices are small (players x seeds x 1,000 resamples): OpenBLAS's threads cost more
# than they give, and on a machine whose cores are busy (a tournament playing, pytest -n 2)
# they made the bootstrap 3-4x slower (bench/ratings_bench.py). Takes effect only when
# numpy is first imported after this line; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
