/* dyno-fake-server.h: a loopback DynamoDB stand-in that serves Query/Scan pages and faults
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef enum {
  FAKE_FAULT_NONE,
  FAKE_FAULT_THROTTLE,    /* 400 ProvisionedThroughputExceededException */
  FAKE_FAULT_500,         /* 500 InternalServerError */
  FAKE_FAULT_503,         /* 503 with an HTML body (a load balancer) */
  FAKE_FAULT_DROP,        /* the connection is closed without an answer */
  FAKE_FAULT_TRUNCATE,    /* 200, Content-Length promises more than is sent, then close */
  FAKE_FAULT_BAD_CRC,     /* 200 with a wrong x-amz-crc32 */
  FAKE_FAULT_SLOW,        /* the right answer, after slow_ms */
  FAKE_FAULT_VALIDATION,  /* 400 ValidationException */
  FAKE_FAULT_NOT_FOUND,   /* 400 ResourceNotFoundException */
  FAKE_FAULT_EXPIRED,     /* 400 ExpiredTokenException (unprefixed __type) */
  FAKE_FAULT_UNRECOGNIZED,/* 400 UnrecognizedClientException */
  FAKE_FAULT_GARBLED,     /* 200, a whole response whose body is JSON cut short */
  FAKE_N_FAULTS
} FakeFault;

typedef struct _FakeServer FakeServer;

/* Listens on 127.0.0.1 (a free port) in the thread-default main context.  Serves:
 * Query/Scan over @n_items items {"pk":{"S":"p"},"sk":{"N":"<i>"},"data":{"S":…}} in sk
 * order, honoring ExclusiveStartKey (sk), Limit, Segment/TotalSegments (item i belongs to
 * segment i % TotalSegments) and a page size cap; ListTables (pages of 2 names over the
 * configured tables); anything else echoes {} . */
FakeServer *fake_server_new               (guint        n_items,
                                           gsize        item_padding);
void        fake_server_free              (FakeServer  *server);
const char *fake_server_get_url           (FakeServer  *server);

/* Faults for the next requests, in order (each request takes the first one queued). */
void        fake_server_push_fault        (FakeServer  *server,
                                           FakeFault    fault);
/* Every request independently gets a random fault from @faults (NONE-terminated) with
 * probability @rate, from a fixed seed so that runs are reproducible. */
void        fake_server_set_random_faults (FakeServer  *server,
                                           const FakeFault *faults,
                                           double       rate,
                                           guint32      seed);
void        fake_server_set_slow_ms       (FakeServer  *server,
                                           guint        slow_ms);
void        fake_server_set_page_bytes    (FakeServer  *server,
                                           gsize        max_bytes);
void        fake_server_set_tables        (FakeServer  *server,
                                           const char * const *names);

/* What the server saw. */
guint       fake_server_get_n_requests    (FakeServer  *server);
/* Connections the requests came on (distinct client ports). */
guint       fake_server_get_n_connections (FakeServer  *server);
guint       fake_server_get_n_faults      (FakeServer  *server);
/* Requests answered with a full page. */
guint       fake_server_get_n_pages_served (FakeServer *server);
/* X-Amz-Target of the last request, its Authorization header, and its body. */
const char *fake_server_get_last_target   (FakeServer  *server);
SoupMessageHeaders *fake_server_get_last_headers (FakeServer *server);
const char *fake_server_get_last_body     (FakeServer  *server);
/* Monotonic time at which the client dropped a slow request (0 if it did not). */
gint64      fake_server_get_disconnect_time (FakeServer *server);
/* The most slow requests (FAKE_FAULT_SLOW) the server was holding at once. */
guint       fake_server_get_max_slow_in_flight (FakeServer *server);
/* Monotonic time at which the last slow request arrived. */
gint64      fake_server_get_slow_arrival_time (FakeServer *server);

/* BatchWriteItem (table "T"): the next @rounds answers leave the batch's last write
 * unprocessed.  n_writes counts the writes accepted. */
void        fake_server_set_unprocessed_rounds (FakeServer *server,
                                                guint       rounds);
guint       fake_server_get_n_writes      (FakeServer  *server);

/* Every request for @operation (such as "DescribeTable") gets this answer, whatever it asks:
 * for hostile and broken responses. */
void        fake_server_set_answer        (FakeServer  *server,
                                           const char  *operation,
                                           guint        status,
                                           const char  *body,
                                           gssize       len);

G_END_DECLS
