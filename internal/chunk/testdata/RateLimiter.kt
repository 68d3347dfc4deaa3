package com.example.limits

import java.time.Clock
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap

/** How many tokens a new bucket starts with. */
const val DEFAULT_BURST = 10

typealias Key = String

/**
 * A token-bucket rate limiter keyed by client.
 *
 * Each key gets [burst] tokens that refill at [ratePerSecond].
 */
class RateLimiter(
    private val ratePerSecond: Double,
    private val burst: Int = DEFAULT_BURST,
    private val clock: Clock = Clock.systemUTC(),
) {
    private val buckets = ConcurrentHashMap<Key, Bucket>()

    init {
        require(ratePerSecond > 0) { "rate must be positive, was $ratePerSecond" }
        require(burst > 0) { "burst must be positive, was $burst" }
    }

    /** Takes one token for [key]; returns false when the client must wait. */
    fun tryAcquire(key: Key): Boolean = tryAcquire(key, 1)

    /** Takes [permits] tokens for [key] if they are all available. */
    fun tryAcquire(key: Key, permits: Int): Boolean {
        require(permits in 1..burst) { "permits must be in 1..$burst" }
        val bucket = buckets.computeIfAbsent(key) { Bucket(burst.toDouble(), now()) }
        synchronized(bucket) {
            refill(bucket)
            if (bucket.tokens < permits) {
                return false
            }
            bucket.tokens -= permits
            return true
        }
    }

    /** How long [key] must wait for one token. */
    fun waitTime(key: Key): Duration {
        val bucket = buckets[key] ?: return Duration.ZERO
        synchronized(bucket) {
            refill(bucket)
            if (bucket.tokens >= 1) {
                return Duration.ZERO
            }
            val seconds = (1 - bucket.tokens) / ratePerSecond
            return Duration.ofNanos((seconds * 1e9).toLong())
        }
    }

    /** Number of clients currently tracked. */
    val size: Int
        get() = buckets.size

    /** Drops buckets idle for longer than [idle]. */
    fun evictIdle(idle: Duration) {
        val cutoff = now() - idle.toNanos()
        buckets.entries.removeIf { (_, bucket) -> synchronized(bucket) { bucket.updatedAt < cutoff } }
    }

    override fun toString(): String = "RateLimiter(rate=$ratePerSecond/s, burst=$burst, keys=${buckets.size})"

    fun forget(key: Key) {
        buckets.remove(key)
    }

    private fun refill(bucket: Bucket) {
        val now = now()
        val elapsed = (now - bucket.updatedAt) / 1e9
        bucket.tokens = minOf(burst.toDouble(), bucket.tokens + elapsed * ratePerSecond)
        bucket.updatedAt = now
    }

    private fun now(): Long = clock.instant().let { it.epochSecond * 1_000_000_000 + it.nano }

    private class Bucket(var tokens: Double, var updatedAt: Long)

    companion object {
        /** A limiter allowing [n] requests per minute. */
        fun perMinute(n: Int): RateLimiter = RateLimiter(n / 60.0, burst = n)

        fun perSecond(n: Int): RateLimiter = RateLimiter(n.toDouble(), burst = n)
    }
}

/** Outcome of a rate-limited call. */
sealed interface Outcome<out T> {
    data class Allowed<T>(val value: T) : Outcome<T>
    data class Throttled(val retryAfter: Duration) : Outcome<Nothing>
}

enum class Tier { FREE, PRO, ENTERPRISE }

object Limits {
    fun forTier(tier: Tier): RateLimiter = when (tier) {
        Tier.FREE -> RateLimiter.perMinute(60)
        Tier.PRO -> RateLimiter.perSecond(20)
        Tier.ENTERPRISE -> RateLimiter.perSecond(200)
    }
}

/** Runs [block] if [limiter] allows it for [key]. */
fun <T> RateLimiter.guard(key: Key, block: () -> T): Outcome<T> =
    if (tryAcquire(key)) Outcome.Allowed(block()) else Outcome.Throttled(waitTime(key))

/** Decides whether a call may go ahead. */
fun interface Admission {
    /**
     * True when [key] may make a call now. Implementations must not block:
     * they are asked on the caller's thread, once per call, and a slow
     * answer delays every request behind it.
     */
    fun admit(key: Key): Boolean

    companion object {
        /** Admits every call. */
        val ALL = Admission { true }
    }
}
