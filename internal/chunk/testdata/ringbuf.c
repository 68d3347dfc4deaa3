/*
 * ringbuf.c - a fixed-size byte ring buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ringbuf.h"

#define RB_MIN_CAPACITY 16
#define RB_IS_POW2(n) (((n) & ((n) - 1)) == 0)

/* A ring buffer; head and tail only ever grow and wrap via the mask. */
struct ringbuf {
	unsigned char *data;
	size_t mask;
	size_t head; /* next byte to write */
	size_t tail; /* next byte to read */
};

typedef enum {
	RB_OK = 0,
	RB_FULL,
	RB_EMPTY,
} rb_status;

static size_t rb_used(const struct ringbuf *rb);

/**
 * rb_new - allocate a ring buffer.
 * @capacity: size in bytes, a power of two of at least RB_MIN_CAPACITY.
 *
 * Returns NULL and sets errno on failure.
 */
struct ringbuf *rb_new(size_t capacity)
{
	struct ringbuf *rb;

	if (capacity < RB_MIN_CAPACITY || !RB_IS_POW2(capacity)) {
		errno = EINVAL;
		return NULL;
	}
	rb = calloc(1, sizeof(*rb));
	if (rb == NULL)
		return NULL;
	rb->data = malloc(capacity);
	if (rb->data == NULL) {
		free(rb);
		return NULL;
	}
	rb->mask = capacity - 1;
	return rb;
}

/* rb_free releases rb; NULL is allowed. */
void rb_free(struct ringbuf *rb)
{
	if (rb == NULL)
		return;
	free(rb->data);
	free(rb);
}

static size_t rb_used(const struct ringbuf *rb)
{
	return rb->head - rb->tail;
}

size_t rb_free_space(const struct ringbuf *rb) { return rb->mask + 1 - rb_used(rb); }

/* rb_write copies up to len bytes in; returns how many were written. */
size_t rb_write(struct ringbuf *rb, const void *buf, size_t len)
{
	const unsigned char *src = buf;
	size_t n = len < rb_free_space(rb) ? len : rb_free_space(rb);
	size_t i;

	for (i = 0; i < n; i++)
		rb->data[(rb->head + i) & rb->mask] = src[i];
	rb->head += n;
	return n;
}

/* rb_read copies up to len bytes out; returns how many were read. */
size_t rb_read(struct ringbuf *rb, void *buf, size_t len)
{
	unsigned char *dst = buf;
	size_t n = len < rb_used(rb) ? len : rb_used(rb);
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = rb->data[(rb->tail + i) & rb->mask];
	rb->tail += n;
	return n;
}

rb_status rb_status_of(const struct ringbuf *rb)
{
	if (rb_used(rb) == 0)
		return RB_EMPTY;
	if (rb_free_space(rb) == 0)
		return RB_FULL;
	return RB_OK;
}
