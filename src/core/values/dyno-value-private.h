/* dyno-value-private.h: the encoded form of values, shared by the files of src/core/values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "dyno-value.h"

G_BEGIN_DECLS

/* Encoding (integers are host-order u32, read with memcpy because nothing is aligned;
 * <len> is one byte for lengths up to 254, else 0xFF and a u32):
 *
 *   S, N   [type]<len>[len bytes][NUL]
 *   B      [type]<len>[len bytes]
 *   BOOL   [type][u8 0|1]
 *   NULL   [type]
 *   M, L, SS, NS, BS
 *          [type][2][u16 total][u16 n][children…][u16 offset × n]   (narrow)
 *          [type][4][u32 total][u32 n][children…][u32 offset × n]   (wide)
 *
 * total is the size of the whole container encoding; the offset table at its end gives
 * each child's position relative to the container's first byte, so child access is O(1).
 * A container is narrow when it fits in 64 KiB, as nearly every one does: 6 bytes of header
 * and 2 an offset instead of 10 and 4 (an item of 15 attributes is 40 bytes smaller, a
 * tenth of a typical item).  The builder writes a wide header and, at the end, moves the
 * children 4 bytes down when the container is narrow (everything inside is relative).
 * An M child is a member record: <len>[name bytes][NUL][value].  A "record" below is <len>
 * and its bytes: the name of a member, or what follows the type byte of an S, N or B.
 * Everything is position independent, so a value is copied with memcpy. */

struct _DynoValue {
  guint8 type;
};

/* what the builder writes first: a wide header */
#define DYNO_VALUE_CONTAINER_HEADER 10
#define DYNO_VALUE_NARROW_HEADER 6
#define DYNO_SHORT_LEN_MAX 254

static inline guint32
dyno_read_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline guint16
dyno_read_u16 (const guint8 *p)
{
  guint16 v;

  memcpy (&v, p, sizeof v);
  return v;
}

/* The container at @p: its size in bytes, its number of children, and where child @index
 * starts. */
static inline guint32
dyno_container_total (const guint8 *p)
{
  return p[1] == 2 ? dyno_read_u16 (p + 2) : dyno_read_u32 (p + 2);
}

static inline guint32
dyno_container_n (const guint8 *p)
{
  return p[1] == 2 ? dyno_read_u16 (p + 4) : dyno_read_u32 (p + 6);
}

static inline const guint8 *
dyno_container_entry (const guint8 *p,
                      guint         index)
{
  if (p[1] == 2)
    {
      guint32 total = dyno_read_u16 (p + 2), n = dyno_read_u16 (p + 4);

      return p + dyno_read_u16 (p + total - 2 * (gsize) n + 2 * (gsize) index);
    }
  else
    {
      guint32 total = dyno_read_u32 (p + 2), n = dyno_read_u32 (p + 6);

      return p + dyno_read_u32 (p + total - 4 * (gsize) n + 4 * (gsize) index);
    }
}

static inline gsize
dyno_record_len (const guint8 *record)
{
  return record[0] != 0xFF ? record[0] : dyno_read_u32 (record + 1);
}

static inline const guint8 *
dyno_record_data (const guint8 *record)
{
  return record[0] != 0xFF ? record + 1 : record + 5;
}

static inline gsize
dyno_len_prefix_size (gsize len)
{
  return len <= DYNO_SHORT_LEN_MAX ? 1 : 5;
}

/* Writes <len> at @o; returns the bytes written. */
static inline gsize
dyno_write_len (guint8 *o,
                gsize   len)
{
  guint32 len32 = (guint32) len;

  if (len <= DYNO_SHORT_LEN_MAX)
    {
      o[0] = (guint8) len;
      return 1;
    }
  o[0] = 0xFF;
  memcpy (o + 1, &len32, 4);
  return 5;
}

static inline gboolean
dyno_value_type_is_container (DynoValueType type)
{
  return type >= DYNO_VALUE_M;
}

gsize      _dyno_value_encoded_size     (const DynoValue *value);

/* The builder's state, here so the JSON readers can append without a call per byte range. */
typedef struct {
  guint8  type;
  gsize   start;       /* position of the container's type byte in buf */
  guint   first_child; /* index into builder->children of its first child */
} DynoBuilderFrame;

struct _DynoValueBuilder {
  guint8           *buf;
  gsize             len;
  gsize             cap;
  /* Plain stacks rather than GArrays: they are touched for every value parsed. */
  DynoBuilderFrame *frames;
  guint             n_frames;
  guint             frames_cap;
  guint             n_nested;   /* open M and L frames: DynamoDB's nesting levels */
  gsize            *children;   /* buf positions of the children of the open containers */
  guint             n_children;
  guint             children_cap;
  gboolean          key_pending; /* an M key was written and its value is expected */
  gboolean          complete;    /* a whole top-level value is in buf */
};

/* The maps and lists open in @builder (an item's own map counts, as DynamoDB counts it). */
static inline guint
_dyno_value_builder_nesting (const DynoValueBuilder *builder)
{
  return builder->n_nested;
}

void _dyno_value_builder_grow          (DynoValueBuilder *builder,
                                        gsize             extra);
void _dyno_value_builder_grow_children (DynoValueBuilder *builder);
void _dyno_value_builder_grow_frames   (DynoValueBuilder *builder);

static inline void
dyno_builder_reserve (DynoValueBuilder *builder,
                      gsize             extra)
{
  if (G_UNLIKELY (builder->len + extra > builder->cap))
    _dyno_value_builder_grow (builder, extra);
}

static inline void
dyno_builder_put (DynoValueBuilder *builder,
                  const void       *data,
                  gsize             len)
{
  dyno_builder_reserve (builder, len);
  if (len > 0)
    memcpy (builder->buf + builder->len, data, len);
  builder->len += len;
}

static inline void
dyno_builder_put_u32 (DynoValueBuilder *builder,
                      guint32           v)
{
  dyno_builder_put (builder, &v, 4);
}

static inline void
dyno_builder_push_child (DynoValueBuilder *builder,
                         gsize             pos)
{
  if (G_UNLIKELY (builder->n_children == builder->children_cap))
    _dyno_value_builder_grow_children (builder);
  builder->children[builder->n_children++] = pos;
}

static inline DynoBuilderFrame *
dyno_builder_top (DynoValueBuilder *builder)
{
  if (builder->n_frames == 0)
    return NULL;
  return &builder->frames[builder->n_frames - 1];
}

/* Unchecked fast paths for callers that drive the builder correctly by construction (the
 * JSON readers): an M key, and an S/N/B scalar whose bytes are already valid (N canonical).
 * They keep the same state as the public functions. */
static inline void
dyno_builder_fast_key (DynoValueBuilder *builder,
                       const char       *name,
                       gsize             len)
{
  guint8 *o;
  gsize h;

  dyno_builder_push_child (builder, builder->len);
  dyno_builder_reserve (builder, 5 + len + 1);
  o = builder->buf + builder->len;
  h = dyno_write_len (o, len);
  if (len > 0)
    memcpy (o + h, name, len);
  o[h + len] = '\0';
  builder->len += h + len + 1;
  builder->key_pending = TRUE;
}

/* Where the next value starts: recorded as a child of the open container (an M's member
 * record was recorded by its key). */
static inline void
dyno_builder_fast_value_start (DynoValueBuilder *builder)
{
  DynoBuilderFrame *top = dyno_builder_top (builder);

  if (top == NULL)
    return;
  if (top->type == DYNO_VALUE_M)
    builder->key_pending = FALSE;
  else
    dyno_builder_push_child (builder, builder->len);
}

static inline void
dyno_builder_fast_begin (DynoValueBuilder *builder,
                         DynoValueType     container)
{
  DynoBuilderFrame *frame;
  guint8 *o;

  dyno_builder_fast_value_start (builder);
  if (G_UNLIKELY (builder->n_frames == builder->frames_cap))
    _dyno_value_builder_grow_frames (builder);
  frame = &builder->frames[builder->n_frames++];
  if (container == DYNO_VALUE_M || container == DYNO_VALUE_L)
    builder->n_nested++;
  frame->type = (guint8) container;
  frame->start = builder->len;
  frame->first_child = builder->n_children;

  dyno_builder_reserve (builder, DYNO_VALUE_CONTAINER_HEADER);
  o = builder->buf + builder->len;
  memset (o, 0, DYNO_VALUE_CONTAINER_HEADER);
  o[0] = (guint8) container;
  builder->len += DYNO_VALUE_CONTAINER_HEADER;
}

static inline void
dyno_builder_fast_scalar (DynoValueBuilder *builder,
                          DynoValueType     type,
                          const void       *data,
                          gsize             len)
{
  guint8 *o;
  gsize h;

  dyno_builder_fast_value_start (builder);
  if (builder->n_frames == 0)
    builder->complete = TRUE;

  dyno_builder_reserve (builder, 1 + 5 + len + 1);
  o = builder->buf + builder->len;
  o[0] = (guint8) type;
  h = dyno_write_len (o + 1, len);
  if (len > 0)
    memcpy (o + 1 + h, data, len);
  builder->len += 1 + h + len;
  if (type != DYNO_VALUE_B)
    builder->buf[builder->len++] = '\0';
}

/* Resets the builder, discarding anything half built. */
void       _dyno_value_builder_reset    (DynoValueBuilder *builder);
/* Finishes a top-level M straight into an item (one allocation, one copy). */
DynoItem  *_dyno_value_builder_finish_item (DynoValueBuilder *builder);

DynoItem  *_dyno_item_new_from_encoded  (const guint8 *data,
                                         gsize         size);

G_END_DECLS
