/*
 * Copyright 2024 Example Authors.
 * Licensed under the Apache License, Version 2.0.
 */
package com.example.cache;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A fixed-capacity cache that evicts the least recently used entry.
 *
 * <p>Not thread-safe.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class LruCache<K, V> implements Cache<K, V> {

    /** Default capacity when none is given. */
    public static final int DEFAULT_CAPACITY = 128;

    private final int capacity;
    private final Map<K, Node<K, V>> index = new HashMap<>();
    private Node<K, V> head;
    private Node<K, V> tail;
    private long hits;
    private long misses;

    /** Creates a cache holding at most capacity entries. */
    public LruCache(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    public LruCache() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * Returns the value for key, or null, and marks the entry as recently used.
     */
    @Override
    public V get(K key) {
        Node<K, V> node = index.get(Objects.requireNonNull(key));
        if (node == null) {
            misses++;
            return null;
        }
        hits++;
        moveToFront(node);
        return node.value;
    }

    @Override
    public void put(K key, V value) {
        Node<K, V> node = index.get(key);
        if (node != null) {
            node.value = value;
            moveToFront(node);
            return;
        }
        node = new Node<>(key, value);
        index.put(key, node);
        pushFront(node);
        if (index.size() > capacity) {
            Node<K, V> evicted = tail;
            unlink(evicted);
            index.remove(evicted.key);
        }
    }

    /** Returns the cached value or computes, caches and returns it. */
    public V computeIfAbsent(K key, Function<? super K, ? extends V> loader) {
        V value = get(key);
        if (value == null) {
            value = loader.apply(key);
            put(key, value);
        }
        return value;
    }

    public double hitRatio() {
        long total = hits + misses;
        return total == 0 ? 0 : (double) hits / total;
    }

    private void moveToFront(Node<K, V> node) {
        unlink(node);
        pushFront(node);
    }

    private void pushFront(Node<K, V> node) {
        node.next = head;
        node.prev = null;
        if (head != null) {
            head.prev = node;
        }
        head = node;
        if (tail == null) {
            tail = node;
        }
    }

    private void unlink(Node<K, V> node) {
        if (node.prev != null) {
            node.prev.next = node.next;
        } else {
            head = node.next;
        }
        if (node.next != null) {
            node.next.prev = node.prev;
        } else {
            tail = node.prev;
        }
    }

    /** A doubly linked list entry. */
    private static final class Node<K, V> {
        final K key;
        V value;
        Node<K, V> prev;
        Node<K, V> next;

        Node(K key, V value) {
            this.key = key;
            this.value = value;
        }
    }
}

/** Eviction policies a cache may use. */
enum Policy {
    LRU,
    LFU;

    boolean tracksFrequency() {
        return this == LFU;
    }
}

interface Cache<K, V> {
    V get(K key);

    void put(K key, V value);
}
