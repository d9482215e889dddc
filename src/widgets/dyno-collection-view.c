/* dyno-collection-view.c: results as item collections (grouped by partition) or flat
 *
 * Columns are made in code as attributes appear (the keys first, then every other attribute
 * in the order it was first seen), like Nautilus does for its dynamic columns.  Grouped, the
 * rows are a DynoPartitionModel: each partition's heading (which opens and closes it), then
 * its items in the order DynamoDB returned them; flat, they are the run itself.  Neither
 * keeps an object or a node per item: a row's item object is made when the row is shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "dyno-collection-view.h"
#include "dyno-insight.h"
#include "dyno-json.h"
#include "dyno-partition-model.h"
#include "dyno-run-view.h"
#include "dyno-widget-util.h"

#define SAMPLE_FOR_DELIMITER 200
#define CELL_MAX_BYTES 160

struct _DynoCollectionView
{
  GtkWidget           parent_instance;

  DynoRun            *run;
  DynoRunView        *view;            /* the run narrowed and sorted: what the rows show */
  GListModel         *items;           /* the run, or a store with one item */
  GHashTable         *key_rows;        /* a key cell's box -> its GtkListItem: the keyboard's
                                        * +/- find the focused row's list item */
  GHashTable         *watched;         /* GtkListItem -> its partition (owned), whose count
                                        * and state the row shows while it is bound */
  DynoPartitionModel *partitions;      /* grouped: the rows */
  GListModel         *rows;            /* what the column view shows: partitions or items */
  int                 indent;          /* an item's indent under its heading, in pixels */
  char               *pk_name;
  char               *sk_name;
  GPtrArray          *attributes;      /* char*, column order */
  GHashTable         *attribute_set;   /* char* (borrowed from attributes) */
  GHashTable         *entities;        /* prefix -> count */
  char                delimiter;
  guint               n_scanned;       /* items looked at for attributes/entities */
  gboolean            grouped;

  GtkWidget          *box;           /* the template's child: bound so dispose unparents it */
  GtkWidget          *chips;
  GtkWidget          *chips_scroller;
  GtkColumnViewColumn *pk_column;      /* borrowed: shown only when not grouped */
  GtkColumnViewColumn *key_column;     /* borrowed: the first column, headings and keys */
  GtkColumnViewColumn *entity_column;  /* borrowed: the key the first column shows; hidden */
  GtkWidget          *group_switch;
  GtkWidget          *filter_button;
  GtkWidget          *filter_bar;
  GtkWidget          *filter_entry;
  GtkWidget          *sort_dropdown;
  GtkStringList      *sort_names;      /* "As Read", then the attributes */
  GtkWidget          *sort_descending;
  GtkWidget          *filter_spinner;
  GtkWidget          *filter_status;
  GtkWidget          *column_view;
  GtkWidget          *detail;          /* not parented here: the query page places it */
  GtkWidget          *detail_view;
  GtkWidget          *detail_format;
  DynoItem           *selected;
};

G_DEFINE_FINAL_TYPE (DynoCollectionView, dyno_collection_view, GTK_TYPE_WIDGET)

enum {
  ENTITY_ACTIVATED,
  ATTRIBUTES_CHANGED,
  SELECTION_CHANGED,
  ITEM_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- cell text ------------------------------------------------------------------------- */

static void append_value (GString *out, const DynoValue *value, guint depth);

static void
append_children (GString         *out,
                 const DynoValue *value,
                 const char      *open,
                 const char      *close,
                 guint            depth)
{
  guint n = dyno_value_get_n_children (value);

  g_string_append (out, open);
  for (guint i = 0; i < n && out->len < 200; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      if (dyno_value_get_kind (value) == DYNO_VALUE_M)
        {
          gsize len;
          const char *name = dyno_value_get_member_name (value, i, &len);

          dyno_string_append_visible (out, name, len);
          g_string_append (out, ": ");
        }
      append_value (out, dyno_value_get_child (value, i), depth + 1);
    }
  if (out->len >= 200)
    g_string_append (out, "…");
  g_string_append (out, close);
}

static void
append_value (GString         *out,
              const DynoValue *value,
              guint            depth)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      {
        gsize len;
        const char *text = dyno_value_get_string (value, &len);

        if (depth > 0)
          g_string_append_c (out, '"');
        /* A NUL would end the cell's text there: it is shown as ␀. */
        dyno_string_append_visible (out, text, len);
      }
      if (depth > 0)
        g_string_append_c (out, '"');
      break;

    case DYNO_VALUE_N:
      g_string_append (out, dyno_value_get_string (value, NULL));
      break;

    case DYNO_VALUE_B:
      {
        gsize len;
        const guint8 *data = dyno_value_get_binary (value, &len);
        g_autofree char *b64 = g_base64_encode (data, MIN (len, 48));

        g_string_append_printf (out, "⟨%s%s⟩", b64, len > 48 ? "…" : "");
      }
      break;

    case DYNO_VALUE_BOOL:
      g_string_append (out, dyno_value_get_bool (value) ? "true" : "false");
      break;

    case DYNO_VALUE_NULL:
      g_string_append (out, "null");
      break;

    case DYNO_VALUE_M:
      append_children (out, value, "{", "}", depth);
      break;

    case DYNO_VALUE_L:
      append_children (out, value, "[", "]", depth);
      break;

    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      append_children (out, value, "«", "»", depth);
      break;
    }
}

static char *
value_to_cell_text (const DynoValue *value)
{
  GString *out = g_string_new (NULL);

  if (value != NULL)
    append_value (out, value, 0);

  /* A cell shows one line of a few dozen characters (the detail pane shows the whole value):
   * laying out a 400 KB string for every row that scrolls by would stall the view. */
  if (out->len > CELL_MAX_BYTES)
    {
      const char *end = g_utf8_find_prev_char (out->str, out->str + CELL_MAX_BYTES + 1);

      g_string_truncate (out, end - out->str);
      g_string_append (out, "…");
    }
  for (gsize i = 0; i < out->len; i++)
    if (out->str[i] == '\n' || out->str[i] == '\r' || out->str[i] == '\t')
      out->str[i] = ' ';

  return g_string_free (out, FALSE);
}

/* ---- entities ---------------------------------------------------------------------------- */

static const char *
entity_key_name (DynoCollectionView *self)
{
  /* Overloading shows in the sort key; a table without one overloads its partition key. */
  return self->sk_name ? self->sk_name : self->pk_name;
}

/* A chip's click: the view (which owns the chip) and the chip's entity. */
typedef struct {
  DynoCollectionView *self;
  char               *entity;
} ChipClick;

static void
chip_click_free (gpointer  data,
                 GClosure *closure)
{
  ChipClick *click = data;

  g_free (click->entity);
  g_free (click);
}

static void
chip_clicked_cb (GtkButton *button,
                 ChipClick *click)
{
  DynoCollectionView *self = click->self;
  char delimiter[2] = { self->delimiter, '\0' };
  g_autofree char *prefix = g_strconcat (click->entity, delimiter, NULL);

  g_signal_emit (self, signals[ENTITY_ACTIVATED], 0, prefix);
}

static int
compare_entities (gconstpointer a,
                  gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

static void
update_chips (DynoCollectionView *self)
{
  GtkWidget *child;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  while ((child = gtk_widget_get_first_child (self->chips)) != NULL)
    gtk_box_remove (GTK_BOX (self->chips), child);

  g_hash_table_iter_init (&iter, self->entities);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_entities);

  for (guint i = 0; i < names->len; i++)
    {
      const char *entity = g_ptr_array_index (names, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->entities, entity));
      g_autofree char *label = g_strdup_printf ("%s %u", entity, count);
      g_autofree char *css = g_strdup_printf ("dyno-entity-%u", dyno_insight_entity_color (entity));
      g_autofree char *tooltip =
        g_strdup_printf (_("Query only %s items: begins_with(%s, \"%s%c\")"),
                                                  entity, entity_key_name (self), entity,
                                                  self->delimiter);
      GtkWidget *button = gtk_button_new_with_label (label);
      ChipClick *click = g_new0 (ChipClick, 1);

      gtk_widget_add_css_class (button, "dyno-chip");
      gtk_widget_add_css_class (button, css);
      gtk_widget_set_tooltip_text (button, tooltip);
      click->self = self;
      click->entity = g_strdup (entity);
      g_signal_connect_data (button, "clicked", G_CALLBACK (chip_clicked_cb), click,
                             chip_click_free, 0);
      gtk_box_append (GTK_BOX (self->chips), button);
    }

  /* chips only make sense with more than one entity type */
  gtk_widget_set_visible (self->chips_scroller, names->len > 1);
}

/* ---- columns ----------------------------------------------------------------------------- */

static DynoItem *
row_item (GtkListItem *list_item)
{
  gpointer object = gtk_list_item_get_item (list_item);

  if (object != NULL && DYNO_IS_ITEM_OBJECT (object))
    return dyno_item_object_get_item (object);

  return NULL;
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  /* GtkInscription (GTK 4.8) is made for list cells: its size comes from its character
   * counts, not from laying out its text, so binding new rows costs no text measuring. */
  GtkWidget *cell = gtk_inscription_new (NULL);

  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), 0);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), 16);
  gtk_list_item_set_child (list_item, cell);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  const char *attribute = user_data;
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  DynoItem *item = row_item (list_item);
  const DynoValue *value = item ? dyno_item_lookup (item, attribute) : NULL;
  g_autofree char *text = value_to_cell_text (value);
  gboolean numeric = value != NULL && dyno_value_get_kind (value) == DYNO_VALUE_N;

  gtk_inscription_set_text (GTK_INSCRIPTION (cell), text);
  /* Numbers are right-aligned so their magnitudes line up. */
  gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), numeric ? 1.0 : 0.0);
  if (value == NULL)
    gtk_widget_remove_css_class (cell, "numeric");
  else if (numeric)
    gtk_widget_add_css_class (cell, "numeric");
}

static void activate_cb (DynoCollectionView *self, guint position);

static void
set_partition_expanded (DynoCollectionView *self,
                        DynoPartition      *partition,
                        gboolean            expanded)
{
  if (self->partitions != NULL &&
      dyno_partition_model_lookup (self->partitions,
                                   dyno_partition_get_key_text (partition)) == partition)
    dyno_partition_model_set_expanded (self->partitions, partition, expanded);
}

/* "row.activate" on a row's first cell: what a double-click or Enter does (an item opens in
 * the editor, a partition opens or closes), for assistive technologies, which see a widget's
 * own actions. */
typedef struct {
  DynoCollectionView *self;       /* owns the factory, so outlives the row */
  GtkListItem        *list_item;  /* owns the action */
} RowActivate;

static void
row_activate_free (gpointer  data,
                   GClosure *closure)
{
  g_free (data);
}

static void
row_activate_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  RowActivate *activate = user_data;
  GtkListItem *list_item = activate->list_item;
  DynoCollectionView *self = activate->self;
  gpointer object = gtk_list_item_get_item (list_item);
  guint position = gtk_list_item_get_position (list_item);
  GtkSelectionModel *model;

  if (self == NULL || object == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  if (DYNO_IS_PARTITION (object))
    {
      set_partition_expanded (self, object, !dyno_partition_get_expanded (object));
      return;
    }
  model = gtk_column_view_get_model (GTK_COLUMN_VIEW (self->column_view));
  if (model != NULL)
    gtk_selection_model_select_item (model, position, TRUE);
  activate_cb (self, position);
}

/* The heading's button: opens or closes the partition (a disclosure button: its name stays,
 * its expanded state says which). */
static void
expander_clicked_cb (GtkButton   *button,
                     RowActivate *row)
{
  gpointer object = gtk_list_item_get_item (row->list_item);

  if (object != NULL && DYNO_IS_PARTITION (object))
    set_partition_expanded (row->self, object, !dyno_partition_get_expanded (object));
}

/* A key cell's box is going: it no longer finds its row for the keyboard. */
static void
key_box_destroy_cb (DynoCollectionView *self,
                    GtkWidget          *box)
{
  g_hash_table_remove (self->key_rows, box);
}

static void
update_expander (GtkWidget *button,
                 gboolean   expanded)
{
  gtk_button_set_icon_name (GTK_BUTTON (button),
                            expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  gtk_widget_set_tooltip_text (button, expanded ? _("Hide the partition's items")
                                                : _("Show the partition's items"));
  gtk_accessible_update_state (GTK_ACCESSIBLE (button),
                               GTK_ACCESSIBLE_STATE_EXPANDED, expanded, -1);
}

/* The first column: the partition (with its count and size) or the item's sort key, its
 * entity tag coloured. */
static void
setup_key_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  g_autoptr(GSimpleActionGroup) actions = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) activate = g_simple_action_new ("activate", NULL);
  RowActivate *data = g_new0 (RowActivate, 1);
  RowActivate *click = g_new0 (RowActivate, 1);
  DynoCollectionView *self = user_data;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *expander = gtk_button_new ();
  GtkWidget *tag = gtk_label_new (NULL);
  GtkWidget *label = gtk_inscription_new (NULL);   /* measured by its character counts */
  GtkWidget *count = gtk_label_new (NULL);

  data->self = user_data;
  data->list_item = list_item;
  g_signal_connect_data (activate, "activate", G_CALLBACK (row_activate_action), data,
                         row_activate_free, 0);
  g_action_map_add_action (G_ACTION_MAP (actions), G_ACTION (activate));
  gtk_widget_insert_action_group (box, "row", G_ACTION_GROUP (actions));
  /* the keyboard's +, - find the row's list item from the focused row */
  g_hash_table_insert (self->key_rows, box, list_item);
  g_signal_connect_object (box, "destroy", G_CALLBACK (key_box_destroy_cb), self,
                           G_CONNECT_SWAPPED);

  /* like GTK's tree expander, it takes no focus: the row has it, and opens with Enter, +, - */
  gtk_widget_add_css_class (expander, "flat");
  gtk_widget_set_focusable (expander, FALSE);
  gtk_widget_set_valign (expander, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Partition items"), -1);
  click->self = self;
  click->list_item = list_item;
  g_signal_connect_data (expander, "clicked", G_CALLBACK (expander_clicked_cb), click,
                         row_activate_free, 0);
  update_expander (expander, TRUE);

  gtk_widget_add_css_class (tag, "dyno-tag");
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (label), 0);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label), 4);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), 24);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (count, "dim-label");
  gtk_widget_add_css_class (count, "caption");
  gtk_widget_add_css_class (count, "numeric");
  gtk_label_set_ellipsize (GTK_LABEL (count), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (count), 0);
  gtk_box_append (GTK_BOX (box), expander);
  gtk_box_append (GTK_BOX (box), tag);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), count);
  gtk_list_item_set_child (list_item, box);
}

static void
update_partition_count (GtkWidget     *count,
                        DynoPartition *partition)
{
  guint n = dyno_partition_get_n_items (partition);
  g_autofree char *size = g_format_size (dyno_partition_get_size (partition));
  g_autofree char *text = g_strdup_printf (g_dngettext (NULL, "%u item · %s",
                                                        "%u items · %s", n),
                                           n, size);

  gtk_label_set_label (GTK_LABEL (count), text);
}

/* A bound heading's partition changed: pages add items to partitions already on screen. */
static void
partition_notify_cb (DynoPartition *partition,
                     GParamSpec    *pspec,
                     GtkListItem   *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *expander = gtk_widget_get_first_child (box);
  GtkWidget *count = gtk_widget_get_last_child (box);

  if (gtk_list_item_get_item (list_item) != (gpointer) partition)
    return;
  if (g_str_equal (pspec->name, "expanded"))
    update_expander (expander, dyno_partition_get_expanded (partition));
  else
    update_partition_count (count, partition);
}

static void
unwatch_partition (DynoCollectionView *self,
                   GtkListItem        *list_item)
{
  GObject *watched = g_hash_table_lookup (self->watched, list_item);

  if (watched != NULL)
    {
      g_signal_handlers_disconnect_by_func (watched, partition_notify_cb, list_item);
      g_hash_table_remove (self->watched, list_item);
    }
}

static void
unbind_key_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  unwatch_partition (DYNO_COLLECTION_VIEW (user_data), list_item);
}

static void
bind_key_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  DynoCollectionView *self = user_data;
  gpointer object = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *expander = gtk_widget_get_first_child (box);
  GtkWidget *tag = gtk_widget_get_next_sibling (expander);
  GtkWidget *label = gtk_widget_get_next_sibling (tag);
  GtkWidget *count = gtk_widget_get_next_sibling (label);

  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *css = g_strdup_printf ("dyno-entity-%u", i);
      gtk_widget_remove_css_class (tag, css);
    }

  unwatch_partition (self, list_item);
  if (DYNO_IS_PARTITION (object))
    {
      DynoPartition *partition = DYNO_PARTITION (object);

      gtk_widget_set_margin_start (box, 0);
      gtk_widget_set_visible (expander, TRUE);
      update_expander (expander, dyno_partition_get_expanded (partition));
      gtk_widget_set_visible (tag, FALSE);
      gtk_inscription_set_text (GTK_INSCRIPTION (label), dyno_partition_get_key_text (partition));
      gtk_widget_add_css_class (label, "heading");
      update_partition_count (count, partition);
      gtk_widget_set_visible (count, TRUE);

      /* pages keep adding items to a partition that is already on screen */
      g_hash_table_insert (self->watched, list_item, g_object_ref (partition));
      g_signal_connect (partition, "notify", G_CALLBACK (partition_notify_cb), list_item);
    }
  else if (object != NULL)
    {
      DynoItem *item = dyno_item_object_get_item (DYNO_ITEM_OBJECT (object));
      const DynoValue *key = dyno_item_lookup (item, entity_key_name (self));
      g_autofree char *text = value_to_cell_text (key);
      g_autofree char *entity = NULL;

      /* grouped, an item sits under its heading's text, past the heading's button */
      if (self->partitions != NULL && self->indent == 0)
        {
          int width = 0;

          gtk_widget_measure (expander, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &width, NULL,
                              NULL);
          self->indent = MAX (width, 16) + 6;
        }
      gtk_widget_set_margin_start (box, self->partitions != NULL ? self->indent : 0);
      gtk_widget_set_visible (expander, FALSE);

      /* One entity type tells nothing: tags show when the keys are overloaded. */
      if (key != NULL && dyno_value_get_kind (key) == DYNO_VALUE_S &&
          g_hash_table_size (self->entities) > 1)
        entity = dyno_insight_entity_prefix (dyno_value_get_string (key, NULL), self->delimiter);

      gtk_widget_set_visible (count, FALSE);
      gtk_widget_remove_css_class (label, "heading");
      gtk_widget_set_visible (tag, entity != NULL);
      if (entity != NULL)
        {
          g_autofree char *css = g_strdup_printf ("dyno-entity-%u",
                                                  dyno_insight_entity_color (entity));

          gtk_label_set_label (GTK_LABEL (tag), entity);
          gtk_widget_add_css_class (tag, css);
          /* the segments after the entity, so the tag is not repeated */
          gtk_inscription_set_text (GTK_INSCRIPTION (label), text + strlen (entity) + 1);
        }
      else
        {
          gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
        }
    }
}

/* The list item of the row with the keyboard focus (the focus is on a row, or in one of its
 * cells), or NULL. */
static GtkListItem *
find_list_item (DynoCollectionView *self,
                GtkWidget          *widget,
                guint               depth)
{
  GtkListItem *list_item = g_hash_table_lookup (self->key_rows, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL && list_item == NULL && depth > 0;
       child = gtk_widget_get_next_sibling (child))
    list_item = find_list_item (self, child, depth - 1);

  return list_item;
}

static GtkListItem *
focused_list_item (DynoCollectionView *self)
{
  GtkRoot *root = gtk_widget_get_root (self->column_view);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  /* up to the row, not to the list (whose other rows are not the focused one) */
  for (GtkWidget *widget = focus;
       widget != NULL && widget != self->column_view && !GTK_IS_LIST_VIEW (widget);
       widget = gtk_widget_get_parent (widget))
    {
      GtkListItem *list_item = find_list_item (self, widget, 3);

      if (list_item != NULL)
        return list_item;
    }
  return NULL;
}

/* +, - (and *, /) open and close the focused partition, as GTK's tree expander did. */
static gboolean
expand_key_cb (GtkWidget *widget,
               GVariant  *args,
               gpointer   user_data)
{
  DynoCollectionView *self = user_data;
  GtkListItem *list_item = focused_list_item (self);
  gpointer object = list_item ? gtk_list_item_get_item (list_item) : NULL;

  if (object == NULL || !DYNO_IS_PARTITION (object))
    return FALSE;
  set_partition_expanded (self, object, g_variant_get_boolean (args));
  return TRUE;
}

static void
add_expand_keys (DynoCollectionView *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  static const struct {
    guint    keyval;
    gboolean expand;
  } keys[] = {
    { GDK_KEY_plus, TRUE }, { GDK_KEY_KP_Add, TRUE },
    { GDK_KEY_asterisk, TRUE }, { GDK_KEY_KP_Multiply, TRUE },
    { GDK_KEY_minus, FALSE }, { GDK_KEY_KP_Subtract, FALSE },
    { GDK_KEY_slash, FALSE }, { GDK_KEY_KP_Divide, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].keyval, 0),
                                                gtk_callback_action_new (expand_key_cb, self,
                                                                         NULL));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_boolean (keys[i].expand));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (self->column_view, controller);
}

static GtkColumnViewColumn *
add_column (DynoCollectionView *self,
            const char         *attribute,
            gboolean            is_key)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;
  char *name = g_strdup (attribute);
  g_autofree char *title = NULL;

  g_ptr_array_add (self->attributes, name);
  g_hash_table_add (self->attribute_set, name);
  /* A name holding U+0000 (C0 80 here) cannot be named back to the sort. */
  if (strstr (name, "\xC0\x80") == NULL)
    gtk_string_list_append (self->sort_names, name);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), name);

  /* A name holding U+0000 (held as C0 80) is titled with ␀. */
  {
    gsize len;
    g_autofree char *bytes = dyno_json_held_string_decode (attribute, &len);

    title = dyno_string_dup_visible (bytes, len, NULL);
  }
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, is_key ? 200 : 140);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
  g_object_unref (column);

  return column;
}

static void
remove_columns (DynoCollectionView *self)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));

  /* keep the first (key) column */
  while (g_list_model_get_n_items (columns) > 1)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 1);
      gtk_column_view_remove_column (GTK_COLUMN_VIEW (self->column_view), column);
    }

  g_hash_table_remove_all (self->attribute_set);
  g_ptr_array_set_size (self->attributes, 0);
  self->pk_column = NULL;
  self->entity_column = NULL;
  /* the sort list is the columns again; the sort goes back to the order read */
  gtk_string_list_splice (self->sort_names, 1,
                          g_list_model_get_n_items (G_LIST_MODEL (self->sort_names)) - 1, NULL);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->sort_dropdown), 0);
}

/* Looks at items not seen yet: new attribute columns, the delimiter, entity counts. */
static void
scan_new_items (DynoCollectionView *self)
{
  guint n = self->items ? g_list_model_get_n_items (self->items) : 0;
  gboolean new_attributes = FALSE;
  gboolean counts_changed = FALSE;

  if (self->delimiter == '\0' && n > 0)
    {
      g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < MIN (n, SAMPLE_FOR_DELIMITER); i++)
        {
          g_autoptr(DynoItemObject) object = g_list_model_get_item (self->items, i);
          const DynoValue *key = dyno_item_lookup (dyno_item_object_get_item (object),
                                                   entity_key_name (self));

          if (key != NULL && dyno_value_get_kind (key) == DYNO_VALUE_S)
            g_ptr_array_add (keys, g_strdup (dyno_value_get_string (key, NULL)));
        }
      self->delimiter = dyno_insight_infer_delimiter ((const char * const *) keys->pdata,
                                                      keys->len);
      /* entities are counted from the start once the delimiter is known */
      if (self->delimiter != '\0')
        self->n_scanned = 0;
    }

  for (guint i = self->n_scanned; i < n; i++)
    {
      g_autoptr(DynoItemObject) object = g_list_model_get_item (self->items, i);
      DynoItem *item = dyno_item_object_get_item (object);
      const DynoValue *map = dyno_item_get_map (item);
      guint n_attrs = dyno_value_get_n_children (map);

      for (guint a = 0; a < n_attrs; a++)
        {
          gsize len;
          const char *member = dyno_value_get_member_name (map, a, &len);
          /* Whole, a NUL held as C0 80: "k\u0000" is a column of its own, not "k". */
          g_autofree char *name = dyno_json_held_string_encode (member, len);

          if (!g_hash_table_contains (self->attribute_set, name))
            {
              add_column (self, name, FALSE);
              new_attributes = TRUE;
            }
        }

      if (self->delimiter != '\0')
        {
          const DynoValue *key = dyno_item_lookup (item, entity_key_name (self));
          g_autofree char *entity = NULL;

          if (key != NULL && dyno_value_get_kind (key) == DYNO_VALUE_S)
            entity = dyno_insight_entity_prefix (dyno_value_get_string (key, NULL),
                                                 self->delimiter);
          if (entity != NULL)
            {
              guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->entities, entity));
              g_hash_table_insert (self->entities, g_steal_pointer (&entity),
                                   GUINT_TO_POINTER (count + 1));
              counts_changed = TRUE;
            }
        }
    }
  self->n_scanned = n;

  if (counts_changed)
    update_chips (self);
  if (new_attributes)
    g_signal_emit (self, signals[ATTRIBUTES_CHANGED], 0);
}

static void
items_changed_cb (GListModel         *items,
                  guint               position,
                  guint               removed,
                  guint               added,
                  DynoCollectionView *self)
{
  if (removed > 0)
    {
      self->n_scanned = 0;
      g_hash_table_remove_all (self->entities);
    }
  scan_new_items (self);
}

/* ---- model ------------------------------------------------------------------------------- */

static void
update_detail (DynoCollectionView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->detail_view));
  g_autofree char *json = NULL;

  if (self->selected == NULL)
    {
      gtk_text_buffer_set_text (buffer, "", -1);
      return;
    }

  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->detail_format)) == 1)
    json = dyno_item_to_plain_json (self->selected);
  else
    json = dyno_item_to_ddb_json (self->selected);

  /* pretty-printed: one item is small */
  {
    g_autoptr(JsonNode) root = dyno_json_parse (json, -1, NULL);

    if (root != NULL)
      {
        g_free (json);
        json = dyno_json_node_to_string (root, TRUE);
      }
  }

  gtk_text_buffer_set_text (buffer, json, -1);
}

/* The DynoItem of @position in the rows (NULL for a partition row). */
static DynoItem *
item_at (DynoCollectionView *self,
         guint               position)
{
  g_autoptr(GObject) object = NULL;

  if (self->rows == NULL)
    return NULL;

  object = g_list_model_get_item (self->rows, position);
  if (object != NULL && DYNO_IS_ITEM_OBJECT (object))
    return dyno_item_ref (dyno_item_object_get_item (DYNO_ITEM_OBJECT (object)));

  return NULL;
}

static void
selection_changed_cb (GtkSelectionModel  *selection,
                      guint               position,
                      guint               n_items,
                      DynoCollectionView *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (selection);
  DynoItem *first = NULL;

  /* the detail pane shows the first selected item; the others are for deleting many */
  if (!gtk_bitset_is_empty (selected))
    first = item_at (self, gtk_bitset_get_minimum (selected));

  g_clear_pointer (&self->selected, dyno_item_unref);
  self->selected = first;

  update_detail (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
activate_cb (DynoCollectionView *self,
             guint               position)
{
  g_autoptr(GObject) object = self->rows ? g_list_model_get_item (self->rows, position) : NULL;

  /* Enter or a double-click on a heading opens or closes its partition */
  if (object != NULL && DYNO_IS_PARTITION (object))
    {
      DynoPartition *partition = DYNO_PARTITION (object);

      set_partition_expanded (self, partition, !dyno_partition_get_expanded (partition));
      return;
    }
  if (object != NULL && DYNO_IS_ITEM_OBJECT (object))
    g_signal_emit (self, signals[ITEM_ACTIVATED], 0,
                   dyno_item_object_get_item (DYNO_ITEM_OBJECT (object)));
}

/* What the rows show: the run narrowed and sorted, or the items as they are. */
static GListModel *
shown_items (DynoCollectionView *self)
{
  return self->view != NULL ? G_LIST_MODEL (self->view) : self->items;
}

/* ---- filter and sort of the loaded items ------------------------------------------------ */

static void
update_filter_status (DynoCollectionView *self)
{
  g_autofree char *status = NULL;

  gtk_spinner_set_spinning (GTK_SPINNER (self->filter_spinner),
                            self->view != NULL && dyno_run_view_get_busy (self->view));
  if (self->view != NULL && *dyno_run_view_get_filter_text (self->view) != '\0'
      && !dyno_run_view_get_busy (self->view))
    {
      guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->view));
      guint loaded = dyno_run_get_n_items (self->run);

      /* Translators: loaded items that hold the filter text, e.g. "12 of 3,400 items" */
      status = g_strdup_printf (g_dngettext (NULL, "%'u of %'u item",
                                             "%'u of %'u items", loaded), shown, loaded);
    }
  gtk_label_set_label (GTK_LABEL (self->filter_status), status ? status : "");
}

static void
view_changed_cb (DynoCollectionView *self)
{
  update_filter_status (self);
}

static void
filter_changed_cb (DynoCollectionView *self)
{
  if (self->view != NULL)
    dyno_run_view_set_filter_text (self->view,
                                   gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
  update_filter_status (self);
}

static void
sort_changed_cb (DynoCollectionView *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->sort_dropdown));
  const char *name = NULL;

  if (selected != GTK_INVALID_LIST_POSITION && selected > 0)
    name = gtk_string_list_get_string (self->sort_names, selected);
  gtk_widget_set_sensitive (self->sort_descending, name != NULL);
  if (self->view != NULL)
    dyno_run_view_set_sort (self->view, name,
                            gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->sort_descending)));
  update_filter_status (self);
}

/* Closing the bar shows the items as read again, as closing a search does. */
static void
filter_bar_cb (DynoCollectionView *self)
{
  if (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->filter_bar)))
    {
      gtk_widget_grab_focus (self->filter_entry);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), "");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->sort_dropdown), 0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->sort_descending), FALSE);
}

static void
filter_stop_cb (DynoCollectionView *self)
{
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->filter_bar), FALSE);
}

static void
set_view (DynoCollectionView *self,
          DynoRun            *run)
{
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_func (self->view, view_changed_cb, self);
  g_clear_object (&self->view);
  if (run == NULL)
    return;

  self->view = dyno_run_view_new (run);
  g_signal_connect_swapped (self->view, "notify::busy", G_CALLBACK (view_changed_cb), self);
  g_signal_connect_swapped (self->view, "items-changed", G_CALLBACK (view_changed_cb), self);
  /* a query run again keeps the text typed; the sort starts over with the new columns */
  dyno_run_view_set_filter_text (self->view,
                                 gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static void
rebuild_model (DynoCollectionView *self)
{
  g_autoptr(GtkMultiSelection) selection = NULL;

  /* the view lets go of the old rows first: its rows unbind from them */
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), NULL);
  g_clear_object (&self->rows);
  g_clear_object (&self->partitions);

  if (self->items == NULL)
    return;

  /* grouped, the partition key is the group's title: no need for its column */
  if (self->pk_column != NULL)
    gtk_column_view_column_set_visible (self->pk_column, !(self->grouped && self->pk_name != NULL));
  /* the first column shows the sort key (or, without one, the partition key) of every item:
   * its own column would only repeat it */
  if (self->entity_column != NULL)
    gtk_column_view_column_set_visible (self->entity_column, FALSE);

  if (self->grouped && self->pk_name != NULL)
    {
      /* grouping a big run goes on in idle time: the first rows show at once */
      self->partitions = dyno_partition_model_new (shown_items (self), self->pk_name);
      self->rows = g_object_ref (G_LIST_MODEL (self->partitions));
    }
  else
    {
      self->rows = g_object_ref (shown_items (self));
    }

  /* several rows can be selected: Delete works on all of them */
  selection = gtk_multi_selection_new (g_object_ref (self->rows));
  g_signal_connect_object (selection, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, 0);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (selection));
}

static void
group_switch_cb (DynoCollectionView *self)
{
  self->grouped = gtk_switch_get_active (GTK_SWITCH (self->group_switch));
  rebuild_model (self);
}

static void
set_items (DynoCollectionView *self,
           GListModel         *items,
           DynoTableInfo      *info,
           const char         *index_name)
{
  const DynoKeyAttr *pk = NULL, *sk = NULL;

  if (self->items != NULL)
    g_signal_handlers_disconnect_by_func (self->items, items_changed_cb, self);
  g_clear_object (&self->items);
  g_clear_pointer (&self->pk_name, g_free);
  g_clear_pointer (&self->sk_name, g_free);
  g_clear_pointer (&self->selected, dyno_item_unref);
  g_hash_table_remove_all (self->entities);
  self->delimiter = '\0';
  self->n_scanned = 0;
  remove_columns (self);
  update_chips (self);
  update_detail (self);

  if (info != NULL)
    {
      const DynoIndexInfo *index = index_name ? dyno_table_info_find_index (info,
                                                                            index_name) : NULL;

      pk = index ? &index->partition_key : dyno_table_info_get_partition_key (info);
      sk = index ? &index->sort_key : dyno_table_info_get_sort_key (info);
      self->pk_name = g_strdup (pk->name);
      self->sk_name = (sk && sk->name) ? g_strdup (sk->name) : NULL;

      /* keys first, then the table's own keys when reading an index */
      self->pk_column = add_column (self, pk->name, TRUE);
      self->entity_column = self->pk_column;
      if (sk && sk->name)
        self->entity_column = add_column (self, sk->name, TRUE);
      if (index != NULL)
        {
          const DynoKeyAttr *tpk = dyno_table_info_get_partition_key (info);
          const DynoKeyAttr *tsk = dyno_table_info_get_sort_key (info);

          if (!g_hash_table_contains (self->attribute_set, tpk->name))
            add_column (self, tpk->name, TRUE);
          if (tsk && tsk->name && !g_hash_table_contains (self->attribute_set, tsk->name))
            add_column (self, tsk->name, TRUE);
        }
    }

  if (items != NULL)
    {
      self->items = g_object_ref (items);
      g_signal_connect (items, "items-changed", G_CALLBACK (items_changed_cb), self);
    }

  /* the first column is named after the key it shows */
  gtk_column_view_column_set_title (self->key_column,
                                    self->pk_name ? entity_key_name (self) : _("Collection"));
  rebuild_model (self);
  scan_new_items (self);
}

/* ---- GObject ----------------------------------------------------------------------------- */

static void
detail_format_cb (DynoCollectionView *self)
{
  update_detail (self);
}

static void
build_ui (DynoCollectionView *self)
{
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;
  GtkSourceBuffer *buffer;

  /* the first column: the partitions' headings and their items' keys */
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_key_cb), self);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_key_cb), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_key_cb), self, 0);
  column = gtk_column_view_column_new (_("Collection"), factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, 300);
  self->key_column = column;
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
  g_object_unref (column);
  add_expand_keys (self);

  /* the detail pane is placed by the query page: it is kept until dispose */
  g_object_ref (self->detail);
  dyno_widget_expose_activate (self->detail_format);
  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->detail_view)));
  gtk_source_buffer_set_language (buffer,
                                  gtk_source_language_manager_get_language (
                                    gtk_source_language_manager_get_default (), "json"));
}

static void
dyno_collection_view_dispose (GObject *object)
{
  DynoCollectionView *self = DYNO_COLLECTION_VIEW (object);

  if (self->items != NULL)
    g_signal_handlers_disconnect_by_func (self->items, items_changed_cb, self);
  g_clear_object (&self->items);
  g_clear_object (&self->rows);
  g_clear_object (&self->partitions);
  set_view (self, NULL);
  g_clear_object (&self->run);
  g_clear_object (&self->partitions);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_COLLECTION_VIEW);
  g_clear_object (&self->detail);
  {
    GHashTableIter iter;
    gpointer list_item, watched;

    /* rows still bound (their list view is going away with us) stop watching */
    g_hash_table_iter_init (&iter, self->watched);
    while (g_hash_table_iter_next (&iter, &list_item, &watched))
      g_signal_handlers_disconnect_by_func (watched, partition_notify_cb, list_item);
    g_hash_table_remove_all (self->watched);
  }

  G_OBJECT_CLASS (dyno_collection_view_parent_class)->dispose (object);
}

static void
dyno_collection_view_finalize (GObject *object)
{
  DynoCollectionView *self = DYNO_COLLECTION_VIEW (object);

  g_clear_pointer (&self->attribute_set, g_hash_table_unref);
  g_clear_pointer (&self->watched, g_hash_table_unref);
  g_clear_pointer (&self->key_rows, g_hash_table_unref);
  g_clear_pointer (&self->attributes, g_ptr_array_unref);
  g_clear_pointer (&self->entities, g_hash_table_unref);
  g_clear_pointer (&self->selected, dyno_item_unref);
  g_free (self->pk_name);
  g_free (self->sk_name);

  G_OBJECT_CLASS (dyno_collection_view_parent_class)->finalize (object);
}

static void
dyno_collection_view_class_init (DynoCollectionViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_collection_view_dispose;
  object_class->finalize = dyno_collection_view_finalize;

  /* An entity chip was clicked: the sort-key prefix to query (e.g. "USER#"). */
  signals[ENTITY_ACTIVATED] = g_signal_new ("entity-activated", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[ATTRIBUTES_CHANGED] = g_signal_new ("attributes-changed", G_TYPE_FROM_CLASS (klass),
                                              G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                              G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
  /* An item row was activated (double click or Enter): the query page opens the editor. */
  signals[ITEM_ACTIVATED] = g_signal_new ("item-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, DYNO_TYPE_ITEM);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-collection-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, box);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, chips_scroller);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, chips);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, group_switch);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, filter_button);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, sort_names);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, sort_descending);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, filter_spinner);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, filter_status);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, column_view);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, detail);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, detail_format);
  gtk_widget_class_bind_template_child (widget_class, DynoCollectionView, detail_view);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, detail_format_cb);
}

static void
dyno_collection_view_init (DynoCollectionView *self)
{
  self->attributes = g_ptr_array_new_with_free_func (g_free);
  self->watched = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->key_rows = g_hash_table_new (NULL, NULL);
  self->attribute_set = g_hash_table_new (g_str_hash, g_str_equal);
  self->entities = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->grouped = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_string_list_append (self->sort_names, _("As Read"));
  gtk_widget_set_sensitive (self->sort_descending, FALSE);
  g_signal_connect_swapped (self->filter_bar, "notify::search-mode-enabled",
                            G_CALLBACK (filter_bar_cb), self);
  build_ui (self);
  g_signal_connect_swapped (self->group_switch, "notify::active", G_CALLBACK (group_switch_cb),
                            self);
}

GtkWidget *
dyno_collection_view_new (void)
{
  return g_object_new (DYNO_TYPE_COLLECTION_VIEW, NULL);
}

void
dyno_collection_view_set_run (DynoCollectionView *self,
                              DynoRun            *run,
                              DynoTableInfo      *info,
                              const char         *index_name)
{
  g_return_if_fail (DYNO_IS_COLLECTION_VIEW (self));

  g_set_object (&self->run, run);
  set_view (self, run);
  set_items (self, run ? G_LIST_MODEL (run) : NULL, info, index_name);
  update_filter_status (self);
}

void
dyno_collection_view_show_item (DynoCollectionView *self,
                                DynoItem           *item,
                                DynoTableInfo      *info)
{
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoItemObject) object = dyno_item_object_new (item, 0);

  g_return_if_fail (DYNO_IS_COLLECTION_VIEW (self));

  g_clear_object (&self->run);
  set_view (self, NULL);
  g_list_store_append (store, object);
  set_items (self, G_LIST_MODEL (store), info, NULL);
  g_clear_pointer (&self->selected, dyno_item_unref);
  self->selected = dyno_item_ref (item);
  update_detail (self);
}

GtkWidget *
dyno_collection_view_get_detail_widget (DynoCollectionView *self)
{
  g_return_val_if_fail (DYNO_IS_COLLECTION_VIEW (self), NULL);
  return self->detail;
}

GStrv
dyno_collection_view_dup_attribute_names (DynoCollectionView *self)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv result;

  g_return_val_if_fail (DYNO_IS_COLLECTION_VIEW (self), NULL);

  for (guint i = 0; i < self->attributes->len; i++)
    {
      const char *name = g_ptr_array_index (self->attributes, i);

      /* A name holding U+0000 (C0 80 here) is not text a form can offer or take back. */
      if (strstr (name, "\xC0\x80") == NULL)
        g_strv_builder_add (builder, name);
    }
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return result;
}

/* The selected items in view order, at most @max of them (0: all). */
static GPtrArray *
collect_selected_items (DynoCollectionView *self,
                        guint               max)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  GtkSelectionModel *selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (self->column_view));
  g_autoptr(GtkBitset) selected = NULL;
  GtkBitsetIter iter;
  guint position;

  if (selection == NULL)
    return items;

  selected = gtk_selection_model_get_selection (selection);
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position);
       ok && (max == 0 || items->len < max);
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      DynoItem *item = item_at (self, position);

      if (item != NULL)
        g_ptr_array_add (items, item);
    }

  /* a GetItem result is shown without a selection: it is the one item */
  if (items->len == 0 && self->run == NULL && self->selected != NULL)
    g_ptr_array_add (items, dyno_item_ref (self->selected));

  return items;
}

/**
 * dyno_collection_view_dup_selected_items:
 *
 * Returns: (transfer container): the selected items (DynoItem*), in view order.  Selected
 * partition rows are not items and are left out.
 */
GPtrArray *
dyno_collection_view_dup_selected_items (DynoCollectionView *self)
{
  g_return_val_if_fail (DYNO_IS_COLLECTION_VIEW (self), NULL);

  return collect_selected_items (self, 0);
}

/**
 * dyno_collection_view_count_selected_items:
 * @at_most: where to stop counting
 *
 * Returns: how many items are selected, up to @at_most: enough to enable actions without
 * walking a selection of 100,000 rows each time the selection or the run changes.
 */
guint
dyno_collection_view_count_selected_items (DynoCollectionView *self,
                                           guint               at_most)
{
  g_autoptr(GPtrArray) items = NULL;

  g_return_val_if_fail (DYNO_IS_COLLECTION_VIEW (self), 0);
  g_return_val_if_fail (at_most > 0, 0);

  items = collect_selected_items (self, at_most);
  return items->len;
}

/**
 * dyno_collection_view_get_items:
 *
 * Returns: (transfer none) (nullable): the loaded items (DynoItemObject), as DynamoDB
 * returned them.
 */
GListModel *
dyno_collection_view_get_items (DynoCollectionView *self)
{
  g_return_val_if_fail (DYNO_IS_COLLECTION_VIEW (self), NULL);
  return self->items;
}
