"""The web tests' fixtures: a real Redis (:mod:`real_redis`)."""

from real_redis import real_redis, redis_backend

__all__ = ["real_redis", "redis_backend"]
