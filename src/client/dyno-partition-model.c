/* dyno-partition-model.c: the rows of a view grouped by partition
 *
 * What grouping costs: one DynoPartition per partition, and four bytes per item (its position
 * in the grouped list, held by its partition).  A row's object is made when the row is asked
 * for, as DynoRun makes its items'.  Row positions come from a Fenwick tree over the
 * partitions' row counts (1 for the heading, plus the items while expanded): finding the
 * partition of a row, the row of a partition, and changing a partition's count are each
 * O(log partitions).
 *
 * Appended items (a run's pages) are grouped a few milliseconds at a time, in idle time when
 * there are more (switching a run of a million items to grouped shows the first rows at
 * once), each step with one items-changed per partition that grew and one for the new
 * partitions, at the end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-json.h"
#include "dyno-partition-model.h"
#include "dyno-partition-private.h"
#include "dyno-run.h"
#include "dyno-run-view.h"

/* Grouping work per main-loop iteration, so frames keep being drawn. */
#define SLICE_USEC 4000

struct _DynoPartitionModel
{
  GObject        parent_instance;

  GListModel    *items;
  DynoRun       *run;           /* @items when it is a run: its items without objects */
  DynoRunView   *view;          /* @items when it is a run's view: the same */
  char          *partition_key_name;
  GPtrArray     *partitions;    /* DynoPartition*, first-appearance order */
  GHashTable    *by_key;        /* key_text -> DynoPartition* (borrowed) */
  guint         *tree;          /* Fenwick tree of the partitions' row counts, 1-based */
  guint          tree_allocated;
  guint          n_rows;
  guint          n_seen;        /* items of @items already grouped */
  guint          slice;         /* items grouped per step at most (0: by time) */
  guint          idle_id;
  DynoPartition *last;          /* where the last item grouped went (borrowed) */
};

static void dyno_partition_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoPartitionModel, dyno_partition_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dyno_partition_model_list_model_init))

static char *
key_to_text (const DynoValue *value)
{
  char *text;

  if (value == NULL)
    return g_strdup ("");

  text = dyno_value_to_key_text (value);
  return text != NULL ? text : dyno_value_to_ddb_json (value);
}

/* The item at @position of the grouped list; *@object keeps it alive when the list is not a
 * run (NULL otherwise). */
static DynoItem *
source_item (DynoPartitionModel  *self,
             guint                position,
             DynoItemObject     **object)
{
  *object = NULL;
  if (self->run != NULL)
    return dyno_run_get_item (self->run, position);
  if (self->view != NULL)
    return dyno_run_view_get_item (self->view, position);

  *object = g_list_model_get_item (self->items, position);
  return *object != NULL ? dyno_item_object_get_item (*object) : NULL;
}

/* ---- the tree of row counts -------------------------------------------------------------- */

static guint
row_count (DynoPartition *partition)
{
  return 1 + (partition->expanded ? partition->n_items : 0);
}

static void
tree_reserve (DynoPartitionModel *self,
              guint               n)
{
  if (n + 1 > self->tree_allocated)
    {
      self->tree_allocated = MAX (MAX (n + 1, 2 * self->tree_allocated), 16);
      self->tree = g_renew (guint, self->tree, self->tree_allocated);
    }
}

static void
tree_add (DynoPartitionModel *self,
          guint               index,
          int                 delta)
{
  for (guint j = index + 1; j <= self->partitions->len; j += j & -j)
    self->tree[j] += (guint) delta;
}

/* The rows before partition @index. */
static guint
tree_prefix (DynoPartitionModel *self,
             guint               index)
{
  guint sum = 0;

  for (guint j = index; j > 0; j -= j & -j)
    sum += self->tree[j];
  return sum;
}

/* After the last partition was added to the list. */
static void
tree_append (DynoPartitionModel *self)
{
  guint n = self->partitions->len;
  guint sum = row_count (g_ptr_array_index (self->partitions, n - 1));

  tree_reserve (self, n);
  for (guint j = n - 1; j > n - (n & -n); j -= j & -j)
    sum += self->tree[j];
  self->tree[n] = sum;
}

static void
tree_rebuild (DynoPartitionModel *self)
{
  guint n = self->partitions->len;

  tree_reserve (self, n);
  for (guint j = 1; j <= n; j++)
    self->tree[j] = row_count (g_ptr_array_index (self->partitions, j - 1));
  for (guint j = 1; j <= n; j++)
    {
      guint parent = j + (j & -j);

      if (parent <= n)
        self->tree[parent] += self->tree[j];
    }
}

/* The partition whose rows hold @row, and where in them (0: its heading). */
static DynoPartition *
tree_find (DynoPartitionModel *self,
           guint               row,
           guint              *offset)
{
  guint n = self->partitions->len;
  guint index = 0;
  guint step = 1;

  while (step <= n / 2)
    step *= 2;
  for (; step > 0; step /= 2)
    if (index + step <= n && self->tree[index + step] <= row)
      {
        index += step;
        row -= self->tree[index];
      }

  *offset = row;
  return index < n ? g_ptr_array_index (self->partitions, index) : NULL;
}

/* ---- GListModel -------------------------------------------------------------------------- */

static GType
dyno_partition_model_get_item_type (GListModel *model)
{
  return G_TYPE_OBJECT;
}

static guint
dyno_partition_model_get_n_items (GListModel *model)
{
  return DYNO_PARTITION_MODEL (model)->n_rows;
}

static gpointer
dyno_partition_model_get_item (GListModel *model,
                               guint       position)
{
  DynoPartitionModel *self = DYNO_PARTITION_MODEL (model);
  DynoPartition *partition;
  guint offset;

  if (position >= self->n_rows)
    return NULL;

  partition = tree_find (self, position, &offset);
  if (partition == NULL)
    return NULL;
  if (offset == 0)
    return g_object_ref (partition);

  return g_list_model_get_item (self->items, partition->positions[offset - 1]);
}

static void
dyno_partition_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyno_partition_model_get_item_type;
  iface->get_n_items = dyno_partition_model_get_n_items;
  iface->get_item = dyno_partition_model_get_item;
}

/* ---- partitions ------------------------------------------------------------------------ */

static void
partition_reserve (DynoPartition *partition,
                   guint          n)
{
  if (n > partition->n_allocated)
    {
      /* by half again: at most a third of the positions' room unused */
      partition->n_allocated = MAX (MAX (n, partition->n_allocated + partition->n_allocated / 2),
                                    4);
      partition->positions = g_renew (guint32, partition->positions, partition->n_allocated);
    }
}

/* The first of @partition's items at or after @position. */
static guint
lower_bound (DynoPartition *partition,
             guint          position)
{
  guint lo = 0, hi = partition->n_items;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (partition->positions[mid] < position)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static DynoPartition *
find_position (DynoPartitionModel *self,
               guint               position,
               guint              *index)
{
  for (guint i = 0; i < self->partitions->len; i++)
    {
      DynoPartition *partition = g_ptr_array_index (self->partitions, i);
      guint k;

      if (partition->n_items == 0 || partition->positions[0] > position ||
          partition->positions[partition->n_items - 1] < position)
        continue;
      k = lower_bound (partition, position);
      if (k < partition->n_items && partition->positions[k] == position)
        {
          *index = k;
          return partition;
        }
    }
  return NULL;
}

/* Items at or after @from move by @delta (one inserted or removed before them). */
static void
shift_positions (DynoPartitionModel *self,
                 guint               from,
                 int                 delta)
{
  for (guint i = 0; i < self->partitions->len; i++)
    {
      DynoPartition *partition = g_ptr_array_index (self->partitions, i);

      for (guint k = lower_bound (partition, from); k < partition->n_items; k++)
        partition->positions[k] += (guint32) delta;
    }
}

/* When an item has gone or changed, what it weighed is not known any more. */
static void
recount_size (DynoPartitionModel *self,
              DynoPartition      *partition)
{
  guint64 size = 0;

  for (guint k = 0; k < partition->n_items; k++)
    {
      g_autoptr(DynoItemObject) object = NULL;
      DynoItem *item = source_item (self, partition->positions[k], &object);

      if (item != NULL)
        size += dyno_item_get_size (item);
    }
  partition->size = size;
}

static void
notify_counts (DynoPartition *partition)
{
  g_object_notify_by_pspec (G_OBJECT (partition),
                            dyno_partition_properties[DYNO_PARTITION_PROP_N_ITEMS]);
  g_object_notify_by_pspec (G_OBJECT (partition),
                            dyno_partition_properties[DYNO_PARTITION_PROP_SIZE]);
}

static void
renumber (DynoPartitionModel *self,
          guint               from)
{
  for (guint i = from; i < self->partitions->len; i++)
    ((DynoPartition *) g_ptr_array_index (self->partitions, i))->index = i;
}

/* Takes away @partition, which has no item left: its rows go (the tree still counts the
 * item that went). */
static void
drop_partition (DynoPartitionModel *self,
                DynoPartition      *partition)
{
  guint index = partition->index;
  guint row = tree_prefix (self, index);
  guint n_rows = tree_prefix (self, index + 1) - row;   /* its heading, and its last item */

  if (self->last == partition)
    self->last = NULL;
  g_hash_table_remove (self->by_key, partition->key_text);
  g_ptr_array_remove_index (self->partitions, index);
  renumber (self, index);
  tree_rebuild (self);
  self->n_rows -= n_rows;
  g_list_model_items_changed (G_LIST_MODEL (self), row, n_rows, 0);
}

/* Takes entry @k out of @partition, whose item at @position has gone or moved elsewhere
 * (@shift: the items after it moved up by one). */
static void
detach (DynoPartitionModel *self,
        DynoPartition      *partition,
        guint               k,
        guint               position,
        gboolean            shift)
{
  g_autoptr(DynoPartition) hold = g_object_ref (partition);

  memmove (&partition->positions[k], &partition->positions[k + 1],
           (partition->n_items - k - 1) * sizeof (guint32));
  partition->n_items--;
  if (shift)
    shift_positions (self, position + 1, -1);

  if (partition->n_items == 0)
    {
      drop_partition (self, partition);
      return;
    }

  recount_size (self, partition);
  if (partition->expanded)
    {
      guint row = tree_prefix (self, partition->index) + 1 + k;

      tree_add (self, partition->index, -1);
      self->n_rows--;
      g_list_model_items_changed (G_LIST_MODEL (self), row, 1, 0);
    }
  notify_counts (partition);
}

/* Puts the item at @position (already counted in the positions) into its partition. */
static void
attach (DynoPartitionModel *self,
        guint               position)
{
  g_autoptr(DynoItemObject) object = NULL;
  DynoItem *item = source_item (self, position, &object);
  const DynoValue *key = item ? dyno_item_lookup (item, self->partition_key_name) : NULL;
  g_autofree char *text = key_to_text (key);
  DynoPartition *partition = g_hash_table_lookup (self->by_key, text);

  if (partition != NULL)
    {
      guint k = lower_bound (partition, position);

      partition_reserve (partition, partition->n_items + 1);
      memmove (&partition->positions[k + 1], &partition->positions[k],
               (partition->n_items - k) * sizeof (guint32));
      partition->positions[k] = position;
      partition->n_items++;
      partition->size += item ? dyno_item_get_size (item) : 0;
      if (partition->expanded)
        {
          guint row = tree_prefix (self, partition->index) + 1 + k;

          tree_add (self, partition->index, 1);
          self->n_rows++;
          g_list_model_items_changed (G_LIST_MODEL (self), row, 0, 1);
        }
      notify_counts (partition);
    }
  else
    {
      guint lo = 0, hi = self->partitions->len;
      guint row;

      partition = g_object_new (DYNO_TYPE_PARTITION, NULL);
      partition->key = key ? dyno_value_copy (key) : NULL;
      partition->key_text = g_steal_pointer (&text);
      partition_reserve (partition, 1);
      partition->positions[0] = position;
      partition->n_items = 1;
      partition->size = item ? dyno_item_get_size (item) : 0;

      /* in order of first appearance: before the first partition that starts after it */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          DynoPartition *other = g_ptr_array_index (self->partitions, mid);

          if (other->positions[0] < position)
            lo = mid + 1;
          else
            hi = mid;
        }
      g_ptr_array_insert (self->partitions, (int) lo, partition);
      g_hash_table_insert (self->by_key, partition->key_text, partition);
      renumber (self, lo);
      tree_rebuild (self);
      row = tree_prefix (self, lo);
      self->n_rows += row_count (partition);
      g_list_model_items_changed (G_LIST_MODEL (self), row, 0, row_count (partition));
    }
}

/* ---- grouping appended items ------------------------------------------------------------- */

static DynoPartition *
partition_for (DynoPartitionModel *self,
               DynoItem           *item,
               GPtrArray          *fresh)
{
  const DynoValue *key = item ? dyno_item_lookup (item, self->partition_key_name) : NULL;
  DynoPartition *partition = self->last;
  g_autofree char *text = NULL;

  /* items of one partition come together (a Query, a Scan's pages): no text to make */
  if (partition != NULL && key != NULL && partition->key != NULL &&
      dyno_value_equal (key, partition->key))
    return partition;

  text = key_to_text (key);
  partition = g_hash_table_lookup (self->by_key, text);
  if (partition == NULL)
    {
      partition = g_object_new (DYNO_TYPE_PARTITION, NULL);
      partition->key = key ? dyno_value_copy (key) : NULL;
      partition->key_text = g_steal_pointer (&text);
      partition->index = self->partitions->len + fresh->len;
      g_ptr_array_add (fresh, partition);
      g_hash_table_insert (self->by_key, partition->key_text, partition);
    }
  self->last = partition;

  return partition;
}

static int
compare_index (gconstpointer a,
               gconstpointer b)
{
  guint x = (*(DynoPartition **) a)->index;
  guint y = (*(DynoPartition **) b)->index;

  return x < y ? -1 : x > y;
}

/* Groups the next items not grouped yet, a slice of them; returns whether all are. */
static gboolean
group_some (DynoPartitionModel *self)
{
  guint n = g_list_model_get_n_items (self->items);
  guint end = n;
  gint64 deadline = g_get_monotonic_time () + SLICE_USEC;
  g_autoptr(GPtrArray) grown = g_ptr_array_new ();
  g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func (g_object_unref);
  guint i;

  if (self->slice > 0 && n - self->n_seen > self->slice)
    end = self->n_seen + self->slice;

  /* First the positions, after each partition's count: no row shows them yet. */
  for (i = self->n_seen; i < end; i++)
    {
      g_autoptr(DynoItemObject) object = NULL;
      DynoItem *item = source_item (self, i, &object);
      DynoPartition *partition = partition_for (self, item, fresh);

      if (partition->n_pending == 0 && partition->index < self->partitions->len)
        g_ptr_array_add (grown, partition);
      partition_reserve (partition, partition->n_items + partition->n_pending + 1);
      partition->positions[partition->n_items + partition->n_pending++] = i;
      partition->size += item ? dyno_item_get_size (item) : 0;

      if ((i & 255) == 255 && i + 1 < end && g_get_monotonic_time () >= deadline)
        {
          i++;
          break;
        }
    }
  self->n_seen = i;

  /* Then the rows: one change per partition that grew, in row order (each at the place the
   * ones before it made), then the new partitions at the end. */
  g_ptr_array_sort (grown, compare_index);
  for (guint g = 0; g < grown->len; g++)
    {
      DynoPartition *partition = g_ptr_array_index (grown, g);
      guint before = partition->n_items;
      guint added = partition->n_pending;

      partition->n_items += added;
      partition->n_pending = 0;
      if (partition->expanded)
        {
          guint row = tree_prefix (self, partition->index) + 1 + before;

          tree_add (self, partition->index, (int) added);
          self->n_rows += added;
          g_list_model_items_changed (G_LIST_MODEL (self), row, 0, added);
        }
      notify_counts (partition);
    }

  if (fresh->len > 0)
    {
      guint row = self->n_rows;
      guint added = 0;

      for (guint f = 0; f < fresh->len; f++)
        {
          DynoPartition *partition = g_ptr_array_index (fresh, f);

          partition->n_items = partition->n_pending;
          partition->n_pending = 0;
          g_ptr_array_add (self->partitions, g_object_ref (partition));
          tree_append (self);
          added += row_count (partition);
        }
      self->n_rows += added;
      g_list_model_items_changed (G_LIST_MODEL (self), row, 0, added);
    }

  return self->n_seen >= n;
}

static gboolean
group_idle_cb (gpointer data)
{
  DynoPartitionModel *self = data;

  if (!group_some (self))
    return G_SOURCE_CONTINUE;

  self->idle_id = 0;
  return G_SOURCE_REMOVE;
}

static void
group_pending_items (DynoPartitionModel *self)
{
  if (self->idle_id != 0)
    return;   /* it catches up in turn */
  if (!group_some (self))
    self->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, group_idle_cb, self, NULL);
}

static void
clear (DynoPartitionModel *self)
{
  guint old = self->n_rows;

  g_clear_handle_id (&self->idle_id, g_source_remove);
  self->last = NULL;
  g_hash_table_remove_all (self->by_key);
  g_ptr_array_set_size (self->partitions, 0);
  self->n_rows = 0;
  self->n_seen = 0;
  if (old > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, 0);
}

/* ---- other changes ------------------------------------------------------------------------ */

static void
replace_item (DynoPartitionModel *self,
              guint               position)
{
  guint k = 0;
  DynoPartition *partition = find_position (self, position, &k);
  g_autoptr(DynoItemObject) object = NULL;
  DynoItem *item;
  g_autofree char *text = NULL;

  if (partition == NULL)
    {
      clear (self);
      group_pending_items (self);
      return;
    }

  item = source_item (self, position, &object);
  text = key_to_text (item ? dyno_item_lookup (item, self->partition_key_name) : NULL);
  if (g_str_equal (text, partition->key_text))
    {
      /* an edit: the row shows the new item */
      recount_size (self, partition);
      if (partition->expanded)
        g_list_model_items_changed (G_LIST_MODEL (self),
                                    tree_prefix (self, partition->index) + 1 + k, 1, 1);
      notify_counts (partition);
      return;
    }

  /* its key changed: it moves to the other partition */
  detach (self, partition, k, position, FALSE);
  attach (self, position);
}

static void
items_changed_cb (GListModel         *items,
                  guint               position,
                  guint               removed,
                  guint               added,
                  DynoPartitionModel *self)
{
  if (position >= self->n_seen)
    {
      /* appended (a page), or in the part not grouped yet */
      group_pending_items (self);
      return;
    }

  if (removed == 1 && added == 1)
    {
      replace_item (self, position);
    }
  else if (removed == 1 && added == 0)
    {
      guint k = 0;
      DynoPartition *partition = find_position (self, position, &k);

      self->n_seen--;
      if (partition != NULL)
        detach (self, partition, k, position, TRUE);
      else
        shift_positions (self, position + 1, -1);
    }
  else if (removed == 0 && added == 1)
    {
      shift_positions (self, position, 1);
      self->n_seen++;
      attach (self, position);
    }
  else
    {
      /* a new run on the same list, or a bigger change: grouped again from the start */
      clear (self);
      group_pending_items (self);
    }
}

/* ---- object ------------------------------------------------------------------------------ */

static void
dyno_partition_model_dispose (GObject *object)
{
  DynoPartitionModel *self = DYNO_PARTITION_MODEL (object);

  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->items != NULL)
    g_signal_handlers_disconnect_by_func (self->items, items_changed_cb, self);
  g_clear_object (&self->items);
  self->run = NULL;
  self->view = NULL;

  G_OBJECT_CLASS (dyno_partition_model_parent_class)->dispose (object);
}

static void
dyno_partition_model_finalize (GObject *object)
{
  DynoPartitionModel *self = DYNO_PARTITION_MODEL (object);

  g_clear_pointer (&self->partitions, g_ptr_array_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_free (self->tree);
  g_free (self->partition_key_name);

  G_OBJECT_CLASS (dyno_partition_model_parent_class)->finalize (object);
}

static void
dyno_partition_model_class_init (DynoPartitionModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyno_partition_model_dispose;
  object_class->finalize = dyno_partition_model_finalize;
}

static void
dyno_partition_model_init (DynoPartitionModel *self)
{
  self->partitions = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
}

DynoPartitionModel *
dyno_partition_model_new (GListModel *items,
                          const char *partition_key_name)
{
  DynoPartitionModel *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (items), NULL);
  g_return_val_if_fail (partition_key_name != NULL, NULL);

  self = g_object_new (DYNO_TYPE_PARTITION_MODEL, NULL);
  self->items = g_object_ref (items);
  self->run = DYNO_IS_RUN (items) ? DYNO_RUN (items) : NULL;
  self->view = DYNO_IS_RUN_VIEW (items) ? DYNO_RUN_VIEW (items) : NULL;
  self->partition_key_name = g_strdup (partition_key_name);
  g_signal_connect (items, "items-changed", G_CALLBACK (items_changed_cb), self);
  group_pending_items (self);

  return self;
}

DynoPartition *
dyno_partition_model_lookup (DynoPartitionModel *self,
                             const char         *key_text)
{
  g_return_val_if_fail (DYNO_IS_PARTITION_MODEL (self), NULL);
  return g_hash_table_lookup (self->by_key, key_text);
}

guint
dyno_partition_model_get_n_partitions (DynoPartitionModel *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION_MODEL (self), 0);
  return self->partitions->len;
}

DynoPartition *
dyno_partition_model_get_partition (DynoPartitionModel *self,
                                    guint               index)
{
  g_return_val_if_fail (DYNO_IS_PARTITION_MODEL (self), NULL);
  g_return_val_if_fail (index < self->partitions->len, NULL);
  return g_ptr_array_index (self->partitions, index);
}

static gboolean
owns (DynoPartitionModel *self,
      DynoPartition      *partition)
{
  return partition->index < self->partitions->len &&
         g_ptr_array_index (self->partitions, partition->index) == partition;
}

guint
dyno_partition_model_get_row (DynoPartitionModel *self,
                              DynoPartition      *partition)
{
  g_return_val_if_fail (DYNO_IS_PARTITION_MODEL (self), G_MAXUINT);
  g_return_val_if_fail (DYNO_IS_PARTITION (partition), G_MAXUINT);
  g_return_val_if_fail (owns (self, partition), G_MAXUINT);

  return tree_prefix (self, partition->index);
}

void
dyno_partition_model_set_expanded (DynoPartitionModel *self,
                                   DynoPartition      *partition,
                                   gboolean            expanded)
{
  guint row;
  guint n;

  g_return_if_fail (DYNO_IS_PARTITION_MODEL (self));
  g_return_if_fail (DYNO_IS_PARTITION (partition));
  g_return_if_fail (owns (self, partition));

  expanded = !!expanded;
  if (partition->expanded == expanded)
    return;

  row = tree_prefix (self, partition->index);
  n = partition->n_items;
  partition->expanded = expanded;
  if (n > 0)
    {
      tree_add (self, partition->index, expanded ? (int) n : -(int) n);
      if (expanded)
        {
          self->n_rows += n;
          g_list_model_items_changed (G_LIST_MODEL (self), row + 1, 0, n);
        }
      else
        {
          self->n_rows -= n;
          g_list_model_items_changed (G_LIST_MODEL (self), row + 1, n, 0);
        }
    }
  g_object_notify_by_pspec (G_OBJECT (partition),
                            dyno_partition_properties[DYNO_PARTITION_PROP_EXPANDED]);
}

gboolean
dyno_partition_model_get_pending (DynoPartitionModel *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION_MODEL (self), FALSE);
  return self->n_seen < g_list_model_get_n_items (self->items);
}

void
dyno_partition_model_set_slice (DynoPartitionModel *self,
                                guint               n)
{
  g_return_if_fail (DYNO_IS_PARTITION_MODEL (self));
  self->slice = n;
}
