"""Arena: language models, scripted baselines and people play games head-to-head."""

__version__ = "0.1.0"
