/* dyno-run-view.c: the loaded items of a run, narrowed by a text and sorted by an attribute
 *
 * The view is an array of the run's positions (guint32 each: 4 bytes an item shown), or
 * nothing at all while no text and no sort are set (then it is the run, item for item).  A
 * new text or sort is computed on worker threads over a snapshot of the run's item pointers
 * (a copy of the array: 8 MB for a million, no reference taken one by one; the run holds on
 * to any item it lets go of until the computation is done, dyno_run_hold_items()), so a
 * million items never stall the main loop; what the user sees meanwhile is the previous
 * result, kept in step with the run.
 *
 * Two sets of settings are kept: the wanted ones (what the user last asked for) and the shown
 * ones (what the positions were computed with).  Changes of the run are applied to the shown
 * positions with the shown settings.  A computation that finishes while the run only grew
 * meanwhile is kept, and the items that came after its snapshot are placed like any others;
 * if the run changed in another way, it is computed again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE 1 /* qsort_r */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyno-item-object.h"
#include "dyno-run-view.h"
#include "dyno-text-match.h"

/* Below this many items one thread filters them all. */
#define PARALLEL_MIN_ITEMS 4096

typedef struct {
  DynoTextMatcher *matcher;     /* NULL: no text */
  char            *sort_name;   /* NULL: the run's order */
  gboolean         descending;
} Settings;

struct _DynoRunView
{
  GObject       parent_instance;

  DynoRun      *run;
  Settings      wanted;
  Settings      shown;
  GArray       *positions;      /* guint32 run positions; NULL: the run itself */

  GCancellable *cancellable;    /* of the computation in flight */
  guint         pending_len;    /* run length when it was snapshot */
  gboolean      pending_stale;  /* the run changed below pending_len meanwhile */
  gboolean      busy;
};

static void dyno_run_view_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoRunView, dyno_run_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dyno_run_view_list_model_init))

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
settings_clear (Settings *settings)
{
  g_clear_pointer (&settings->matcher, dyno_text_matcher_free);
  g_clear_pointer (&settings->sort_name, g_free);
  settings->descending = FALSE;
}

static void
settings_copy (Settings       *dest,
               const Settings *src)
{
  settings_clear (dest);
  dest->matcher = src->matcher ? dyno_text_matcher_new (dyno_text_matcher_get_text (src->matcher))
                               : NULL;
  dest->sort_name = g_strdup (src->sort_name);
  dest->descending = src->descending;
}

static gboolean
settings_is_identity (const Settings *settings)
{
  return settings->matcher == NULL && settings->sort_name == NULL;
}

/* ---- the order -------------------------------------------------------------------------- */

/* What the sort compares, most of it without reading the items: the value's type (items
 * without the attribute last), then a 64-bit prefix that orders as the values do wherever
 * two prefixes differ (the first 8 bytes of an S or B, big-endian; an N as a double, whose
 * conversion never reverses an order), and only on a tie the values themselves.  A million
 * entries sorted this way touch the items' memory a few times, not twenty times each. */
typedef struct {
  guint64          prefix;
  const DynoValue *key;   /* the sort attribute's value, NULL when the item has none */
  guint32          position;
  guint8           kind;  /* the value's type; 255 without one */
} SortEntry;

static int
compare_entries (const void *a,
                 const void *b,
                 void       *data)
{
  const SortEntry *x = a, *y = b;
  gboolean descending = GPOINTER_TO_INT (data);
  int cmp;

  /* items without the attribute come last, either way */
  if (x->key == NULL || y->key == NULL)
    cmp = (x->key == NULL) - (y->key == NULL);
  else
    {
      if (x->kind != y->kind)
        cmp = x->kind < y->kind ? -1 : 1;
      else if (x->prefix != y->prefix)
        cmp = x->prefix < y->prefix ? -1 : 1;
      else
        cmp = dyno_value_compare (x->key, y->key);
      if (descending)
        cmp = -cmp;
    }
  if (cmp != 0)
    return cmp;
  return (x->position > y->position) - (x->position < y->position);
}

static guint64
bytes_prefix (const guint8 *data,
              gsize         len)
{
  guint64 prefix = 0;

  for (gsize i = 0; i < 8; i++)
    prefix = (prefix << 8) | (i < len ? data[i] : 0);
  return prefix;
}

static guint64
number_prefix (const char *decimal)
{
  double d = g_ascii_strtod (decimal, NULL);
  guint64 bits;

  memcpy (&bits, &d, sizeof bits);
  /* IEEE doubles order as unsigned integers once negatives are flipped whole and positives
   * have their sign bit set */
  return (bits & G_GUINT64_CONSTANT (0x8000000000000000)) ? ~bits
                                                          : bits | G_GUINT64_CONSTANT (0x8000000000000000);
}

static SortEntry
entry_for (DynoItem   *item,
           guint32     position,
           const char *sort_name)
{
  SortEntry entry = { 0, dyno_item_lookup (item, sort_name), position, 255 };

  if (entry.key != NULL)
    {
      gsize len = 0;

      entry.kind = (guint8) dyno_value_get_kind (entry.key);
      switch (dyno_value_get_kind (entry.key))
        {
        case DYNO_VALUE_S:
          {
            const char *text = dyno_value_get_string (entry.key, &len);

            entry.prefix = bytes_prefix ((const guint8 *) text, len);
          }
          break;
        case DYNO_VALUE_B:
          {
            const guint8 *data = dyno_value_get_binary (entry.key, &len);

            entry.prefix = bytes_prefix (data, len);
          }
          break;
        case DYNO_VALUE_N:
          entry.prefix = number_prefix (dyno_value_get_string (entry.key, NULL));
          break;
        default:
          break;
        }
    }
  return entry;
}

/* ---- the computation, on worker threads ------------------------------------------------- */

typedef struct {
  DynoItem **items;       /* the snapshot: borrowed, the run holds them (see the top) */
  guint      n_items;
  Settings   settings;
} Job;

static void
job_free (Job *job)
{
  g_free (job->items);
  settings_clear (&job->settings);
  g_free (job);
}

typedef struct {
  const Job *job;
  guint      start;
  guint      end;
  GArray    *matched;     /* guint32 */
} Slice;

static gpointer
filter_slice (gpointer data)
{
  Slice *slice = data;

  for (guint32 i = slice->start; i < slice->end; i++)
    if (dyno_text_matcher_match_item (slice->job->settings.matcher,
                                      slice->job->items[i]))
      g_array_append_val (slice->matched, i);
  return NULL;
}

static GArray *
job_filter (const Job *job)
{
  guint n = job->n_items;
  guint n_threads = n >= PARALLEL_MIN_ITEMS ? CLAMP (g_get_num_processors (), 1, 8) : 1;
  Slice *slices = g_new0 (Slice, n_threads);
  GThread **threads = g_new0 (GThread *, n_threads);
  GArray *result;

  for (guint t = 0; t < n_threads; t++)
    {
      slices[t].job = job;
      slices[t].start = (guint) ((guint64) n * t / n_threads);
      slices[t].end = (guint) ((guint64) n * (t + 1) / n_threads);
      slices[t].matched = g_array_new (FALSE, FALSE, sizeof (guint32));
      if (t > 0)
        threads[t] = g_thread_new ("dyno-run-view", filter_slice, &slices[t]);
    }
  filter_slice (&slices[0]);
  result = slices[0].matched;
  for (guint t = 1; t < n_threads; t++)
    {
      g_thread_join (threads[t]);
      g_array_append_vals (result, slices[t].matched->data, slices[t].matched->len);
      g_array_unref (slices[t].matched);
    }
  g_free (threads);
  g_free (slices);
  return result;
}

static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  const Job *job = task_data;
  GArray *positions;

  if (job->settings.matcher != NULL)
    positions = job_filter (job);
  else
    {
      positions = g_array_sized_new (FALSE, FALSE, sizeof (guint32), job->n_items);
      for (guint32 i = 0; i < job->n_items; i++)
        g_array_append_val (positions, i);
    }

  if (job->settings.sort_name != NULL && !g_cancellable_is_cancelled (cancellable))
    {
      SortEntry *entries = g_new (SortEntry, MAX (positions->len, 1));

      for (guint i = 0; i < positions->len; i++)
        {
          guint32 p = g_array_index (positions, guint32, i);

          entries[i] = entry_for (job->items[p], p, job->settings.sort_name);
        }
      qsort_r (entries, positions->len, sizeof (SortEntry), compare_entries,
               GINT_TO_POINTER (job->settings.descending));
      for (guint i = 0; i < positions->len; i++)
        g_array_index (positions, guint32, i) = entries[i].position;
      g_free (entries);
    }

  g_task_return_pointer (task, positions, (GDestroyNotify) g_array_unref);
}

/* ---- the shown positions, kept in step with the run ------------------------------------- */

static guint
view_n_items (DynoRunView *self)
{
  return self->positions != NULL ? self->positions->len : dyno_run_get_n_items (self->run);
}

/* First index of the sorted-by-position @positions whose value is ≥ @position. */
static guint
lower_bound (GArray  *positions,
             guint32  position)
{
  guint lo = 0, hi = positions->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (positions, guint32, mid) < position)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The run replaced @removed items at @position by @added: the same in the shown positions. */
static void
apply_run_change (DynoRunView *self,
                  guint        position,
                  guint        removed,
                  guint        added)
{
  g_autoptr(GArray) matched = NULL;
  guint first = G_MAXUINT, last = 0, n_removed = 0;
  guint old_len = self->positions->len;

  /* 1. the positions of the items that went, and the shift of those after them */
  if (removed > 0 || position + added < dyno_run_get_n_items (self->run))
    {
      guint32 *p = (guint32 *) self->positions->data;
      guint out = 0;

      for (guint i = 0; i < old_len; i++)
        {
          if (p[i] < position)
            p[out++] = p[i];
          else if (p[i] < position + removed)
            {
              first = MIN (first, i);
              last = i;
              n_removed++;
            }
          else
            p[out++] = p[i] - removed + added;
        }
      g_array_set_size (self->positions, out);
      if (n_removed > 0)
        g_list_model_items_changed (G_LIST_MODEL (self), first, last - first + 1,
                                    last - first + 1 - n_removed);
    }

  /* 2. the items that came, if they match, in their place */
  matched = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 i = position; i < position + added; i++)
    if (self->shown.matcher == NULL
        || dyno_text_matcher_match_item (self->shown.matcher, dyno_run_get_item (self->run, i)))
      g_array_append_val (matched, i);
  if (matched->len == 0)
    return;

  if (self->shown.sort_name == NULL)
    {
      guint at = lower_bound (self->positions, position);

      g_array_insert_vals (self->positions, at, matched->data, matched->len);
      g_list_model_items_changed (G_LIST_MODEL (self), at, 0, matched->len);
    }
  else
    {
      gpointer descending = GINT_TO_POINTER (self->shown.descending);
      const char *name = self->shown.sort_name;
      guint n_old = self->positions->len, n_new = matched->len;
      GArray *merged = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_old + n_new);
      SortEntry *fresh = g_new (SortEntry, n_new);
      guint from = 0, first_in = 0, last_in = 0;

      for (guint k = 0; k < n_new; k++)
        {
          guint32 p = g_array_index (matched, guint32, k);

          fresh[k] = entry_for (dyno_run_get_item (self->run, p), p, name);
        }
      qsort_r (fresh, n_new, sizeof (SortEntry), compare_entries, descending);

      /* each new item's place among the shown ones by binary search (a page of new items
       * looks at a few dozen shown items each, not at all of them), then one copy */
      for (guint k = 0; k < n_new; k++)
        {
          guint lo = from, hi = n_old;

          while (lo < hi)
            {
              guint mid = lo + (hi - lo) / 2;
              guint32 p = g_array_index (self->positions, guint32, mid);
              SortEntry old = entry_for (dyno_run_get_item (self->run, p), p, name);

              if (compare_entries (&old, &fresh[k], descending) < 0)
                lo = mid + 1;
              else
                hi = mid;
            }
          g_array_append_vals (merged, &g_array_index (self->positions, guint32, from), lo - from);
          from = lo;
          if (k == 0)
            first_in = merged->len;
          last_in = merged->len;
          g_array_append_val (merged, fresh[k].position);
        }
      g_array_append_vals (merged, &g_array_index (self->positions, guint32, from), n_old - from);
      g_free (fresh);
      g_array_unref (self->positions);
      self->positions = merged;
      g_list_model_items_changed (G_LIST_MODEL (self), first_in, last_in - first_in + 1 - n_new,
                                  last_in - first_in + 1);
    }
}

static void
run_items_changed_cb (GListModel  *run,
                      guint        position,
                      guint        removed,
                      guint        added,
                      DynoRunView *self)
{
  if (self->cancellable != NULL && position < self->pending_len)
    self->pending_stale = TRUE;

  if (self->positions == NULL)
    g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  else
    apply_run_change (self, position, removed, added);
}

static void
set_busy (DynoRunView *self,
          gboolean     busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void start_computation (DynoRunView *self);

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  DynoRunView *self = DYNO_RUN_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GArray) positions = g_task_propagate_pointer (G_TASK (result), NULL);
  guint old_n, run_n;

  /* the snapshot is read no more (each computation holds the run's items once) */
  dyno_run_release_items (self->run);

  /* superseded by a newer text or sort, or the view is going */
  if (positions == NULL || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);

  if (self->pending_stale)
    {
      /* the run changed below the snapshot: what was computed may name other items */
      start_computation (self);
      return;
    }

  old_n = view_n_items (self);
  g_clear_pointer (&self->positions, g_array_unref);
  self->positions = g_steal_pointer (&positions);
  settings_clear (&self->shown);
  self->shown = job->settings;
  memset (&job->settings, 0, sizeof job->settings);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, self->positions->len);

  /* what came after the snapshot */
  run_n = dyno_run_get_n_items (self->run);
  if (run_n > self->pending_len)
    apply_run_change (self, self->pending_len, 0, run_n - self->pending_len);

  set_busy (self, FALSE);
}

static void
start_computation (DynoRunView *self)
{
  g_autoptr(GTask) task = NULL;
  DynoItem * const *items;
  Job *job;
  guint n;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (settings_is_identity (&self->wanted))
    {
      guint old_n = view_n_items (self);

      settings_clear (&self->shown);
      g_clear_pointer (&self->positions, g_array_unref);
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, view_n_items (self));
      set_busy (self, FALSE);
      return;
    }

  items = dyno_run_peek_items (self->run, &n);
  job = g_new0 (Job, 1);
  job->items = g_memdup2 (items, sizeof (DynoItem *) * (gsize) n);
  job->n_items = n;
  settings_copy (&job->settings, &self->wanted);
  dyno_run_hold_items (self->run);

  self->cancellable = g_cancellable_new ();
  self->pending_len = n;
  self->pending_stale = FALSE;
  task = g_task_new (self, self->cancellable, job_done_cb, NULL);
  g_task_set_source_tag (task, start_computation);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, job_thread);
  set_busy (self, TRUE);
}

/* ---- GListModel --------------------------------------------------------------------------- */

static GType
dyno_run_view_get_item_type (GListModel *model)
{
  return DYNO_TYPE_ITEM_OBJECT;
}

static guint
dyno_run_view_get_n_items (GListModel *model)
{
  return view_n_items (DYNO_RUN_VIEW (model));
}

static gpointer
dyno_run_view_list_get_item (GListModel *model,
                             guint       position)
{
  DynoRunView *self = DYNO_RUN_VIEW (model);
  guint run_position;

  if (position >= view_n_items (self))
    return NULL;
  run_position = dyno_run_view_get_run_position (self, position);
  return dyno_item_object_new (dyno_run_get_item (self->run, run_position), run_position);
}

static void
dyno_run_view_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyno_run_view_get_item_type;
  iface->get_n_items = dyno_run_view_get_n_items;
  iface->get_item = dyno_run_view_list_get_item;
}

/* ---- object ------------------------------------------------------------------------------- */

static void
dyno_run_view_dispose (GObject *object)
{
  DynoRunView *self = DYNO_RUN_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->run != NULL)
    g_signal_handlers_disconnect_by_func (self->run, run_items_changed_cb, self);
  g_clear_object (&self->run);

  G_OBJECT_CLASS (dyno_run_view_parent_class)->dispose (object);
}

static void
dyno_run_view_finalize (GObject *object)
{
  DynoRunView *self = DYNO_RUN_VIEW (object);

  settings_clear (&self->wanted);
  settings_clear (&self->shown);
  g_clear_pointer (&self->positions, g_array_unref);

  G_OBJECT_CLASS (dyno_run_view_parent_class)->finalize (object);
}

static void
dyno_run_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DynoRunView *self = DYNO_RUN_VIEW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_run_view_class_init (DynoRunViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyno_run_view_dispose;
  object_class->finalize = dyno_run_view_finalize;
  object_class->get_property = dyno_run_view_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyno_run_view_init (DynoRunView *self)
{
}

DynoRunView *
dyno_run_view_new (DynoRun *run)
{
  DynoRunView *self;

  g_return_val_if_fail (DYNO_IS_RUN (run), NULL);

  self = g_object_new (DYNO_TYPE_RUN_VIEW, NULL);
  self->run = g_object_ref (run);
  g_signal_connect_object (run, "items-changed", G_CALLBACK (run_items_changed_cb), self, 0);
  return self;
}

DynoRun *
dyno_run_view_get_run (DynoRunView *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), NULL);
  return self->run;
}

void
dyno_run_view_set_filter_text (DynoRunView *self,
                               const char  *text)
{
  g_return_if_fail (DYNO_IS_RUN_VIEW (self));

  if (g_strcmp0 (text ? text : "", dyno_run_view_get_filter_text (self)) == 0)
    return;
  g_clear_pointer (&self->wanted.matcher, dyno_text_matcher_free);
  self->wanted.matcher = text != NULL ? dyno_text_matcher_new (text) : NULL;
  start_computation (self);
}

const char *
dyno_run_view_get_filter_text (DynoRunView *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), NULL);
  return self->wanted.matcher ? dyno_text_matcher_get_text (self->wanted.matcher) : "";
}

void
dyno_run_view_set_sort (DynoRunView *self,
                        const char  *attribute,
                        gboolean     descending)
{
  g_return_if_fail (DYNO_IS_RUN_VIEW (self));

  descending = attribute != NULL && descending;
  if (g_strcmp0 (attribute, self->wanted.sort_name) == 0 && descending == self->wanted.descending)
    return;
  g_free (self->wanted.sort_name);
  self->wanted.sort_name = g_strdup (attribute);
  self->wanted.descending = descending;
  start_computation (self);
}

const char *
dyno_run_view_get_sort_attribute (DynoRunView *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), NULL);
  return self->wanted.sort_name;
}

gboolean
dyno_run_view_get_sort_descending (DynoRunView *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), FALSE);
  return self->wanted.descending;
}

gboolean
dyno_run_view_get_busy (DynoRunView *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), FALSE);
  return self->busy;
}

DynoItem *
dyno_run_view_get_item (DynoRunView *self,
                        guint        position)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), NULL);
  g_return_val_if_fail (position < view_n_items (self), NULL);

  return dyno_run_get_item (self->run, dyno_run_view_get_run_position (self, position));
}

guint
dyno_run_view_get_run_position (DynoRunView *self,
                                guint        position)
{
  g_return_val_if_fail (DYNO_IS_RUN_VIEW (self), 0);

  if (self->positions == NULL)
    return position;
  g_return_val_if_fail (position < self->positions->len, 0);
  return g_array_index (self->positions, guint32, position);
}
