"""Benchmarks behind ``koikoi bench``.

Every benchmark reports ratios against a floor or a baseline measured in the same run, because
these machines are noisy; none of them is a pass/fail test.
"""
