/* dyno-table-designer.c: design a new table, or a new GSI for an existing one, and create it
 *
 * The fields are the source of truth: every change rebuilds a DynoTableDesign from them,
 * validates it and shows each problem under its field, so what is sent is always what is
 * shown in the Request expander.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-table-designer.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dyno-designer-index-row.h"
#include "dyno-engine-backend.h"
#include "dyno-http-error.h"
#include "dyno-pattern-plan.h"
#include "dyno-widget-util.h"

/* One input and the error label under it.  @field is the validator's field id (for index
 * rows, the part after "index:<i>:"). */
typedef struct _DynoTableDesigner DynoTableDesigner;

typedef struct {
  DynoTableDesigner *designer;
  const char        *field;
  GtkWidget         *input;
  GtkWidget         *error;
  /* Fields that start empty say "Enter …" only once the user has been there. */
  gboolean           needs_touch;
  gboolean           touched;
} Field;

enum {
  TABLE_NAME,
  PK_NAME,
  PK_TYPE,
  SK_NAME,
  SK_TYPE,
  BILLING,
  RCU,
  WCU,
  INDEXES,
  N_TABLE_FIELDS
};

typedef struct {
  DynoTableDesigner *designer;
  GtkWidget         *box;
  GtkWidget         *title;
  GtkWidget         *remove_button;
  GtkWidget         *capacity_box;
  Field              fields[N_INDEX_FIELDS];
} IndexRow;

struct _DynoTableDesigner
{
  AdwWindow        parent_instance;

  DynoBackend     *backend;
  DynoTableInfo   *existing;
  DynoTableDesign *design;
  GCancellable    *cancellable;
  guint            poll_id;
  gboolean         building;
  gboolean         busy;

  GtkWidget       *window_title;
  GtkWidget       *cancel_button;
  GtkWidget       *create_button;
  GtkWidget       *form;
  GtkWidget       *table_fields;
  GtkWidget       *keys_label;
  GtkWidget       *indexes_heading;
  GtkWidget       *indexes_error;
  GtkWidget       *capacity_box;
  GtkWidget       *index_list;
  GtkWidget       *add_index_button;
  GtkWidget       *create_reason;
  GtkWidget       *request_expander;
  GtkWidget       *request_label;
  GtkWidget       *server_error;
  GtkWidget       *progress;
  GtkWidget       *progress_spinner;
  GtkWidget       *progress_label;
  GtkWidget       *patterns_path;
  GtkWidget       *patterns_status;
  GtkWidget       *pattern_list;

  GtkFileChooserNative *patterns_chooser;
  GPtrArray       *patterns;         /* DynoAccessPattern*, or NULL: none read */
  char            *saved_patterns;   /* the Playground workspace's pattern set, or NULL */

  Field            fields[N_TABLE_FIELDS];
  GPtrArray       *rows;             /* IndexRow* */
};

G_DEFINE_FINAL_TYPE (DynoTableDesigner, dyno_table_designer, ADW_TYPE_WINDOW)

enum {
  SIGNAL_TABLE_CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update (DynoTableDesigner *self);
static void update_patterns (DynoTableDesigner *self);
static void poll_table (DynoTableDesigner *self);

static const DynoValueType key_types[] = { DYNO_VALUE_S, DYNO_VALUE_N, DYNO_VALUE_B };
static const DynoProjectionType projections[] = {
  DYNO_PROJECTION_ALL, DYNO_PROJECTION_KEYS_ONLY, DYNO_PROJECTION_INCLUDE
};

/* ---- building blocks ------------------------------------------------------------------- */

static void
init_field (DynoTableDesigner *self,
            Field             *field,
            const char        *id,
            GtkWidget         *input,
            GtkWidget         *error,
            gboolean           needs_touch)
{
  field->designer = self;
  field->field = id;
  field->input = input;
  field->error = error;
  field->needs_touch = needs_touch;
  /* a screen reader reads the problem with the field */
  if (input != NULL)
    dyno_field_error_add_field (field->error, input);
}

static const char *
entry_text (GtkWidget *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

static DynoValueType
selected_type (GtkWidget *dropdown)
{
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (dropdown));

  return key_types[MIN (i, G_N_ELEMENTS (key_types) - 1)];
}

static void
select_type (GtkWidget     *dropdown,
             DynoValueType  type)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_types); i++)
    if (key_types[i] == type)
      gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), i);
}

static gint64
spin_value (GtkWidget *spin)
{
  return gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin));
}

static gboolean
provisioned (DynoTableDesigner *self)
{
  if (self->existing != NULL)
    return dyno_table_info_get_billing_mode (self->existing) == DYNO_BILLING_PROVISIONED;
  return gtk_drop_down_get_selected (GTK_DROP_DOWN (self->fields[BILLING].input)) == 1;
}

static DynoProjectionType
row_projection (IndexRow *row)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->fields[IX_PROJECTION].input));

  return projections[MIN (selected, G_N_ELEMENTS (projections) - 1)];
}

static gboolean
row_is_global (IndexRow *row)
{
  return gtk_drop_down_get_selected (GTK_DROP_DOWN (row->fields[IX_TYPE].input)) == 0;
}

/* ---- design <-> fields ----------------------------------------------------------------- */

static DynoTableDesign *
design_from_fields (DynoTableDesigner *self)
{
  DynoTableDesign *design;

  if (self->existing != NULL)
    {
      design = dyno_table_design_new_for_index (self->existing);
    }
  else
    {
      design = dyno_table_design_new ();
      dyno_table_design_set_table_name (design, entry_text (self->fields[TABLE_NAME].input));
      dyno_table_design_set_partition_key (design, entry_text (self->fields[PK_NAME].input),
                                           selected_type (self->fields[PK_TYPE].input));
      dyno_table_design_set_sort_key (design, entry_text (self->fields[SK_NAME].input),
                                      selected_type (self->fields[SK_TYPE].input));
      dyno_table_design_set_billing_mode (design, provisioned (self)
                                                  ? DYNO_BILLING_PROVISIONED
                                                  : DYNO_BILLING_PAY_PER_REQUEST);
      if (provisioned (self))
        dyno_table_design_set_capacity (design, spin_value (self->fields[RCU].input),
                                        spin_value (self->fields[WCU].input));
    }

  for (guint i = 0; i < self->rows->len; i++)
    {
      IndexRow *row = g_ptr_array_index (self->rows, i);
      gboolean global = row_is_global (row);
      DynoIndexDesign *index;
      guint at;

      /* the add-index design starts with its one GSI */
      at = self->existing != NULL && i == 0 ? 0 : dyno_table_design_add_index (design, global);
      index = dyno_table_design_get_index (design, at);
      dyno_table_design_index_set_global (index, global);
      dyno_table_design_index_set_name (index, entry_text (row->fields[IX_NAME].input));
      dyno_table_design_index_set_partition_key (index,
                                                 global ? entry_text (row->fields[IX_PK_NAME].input)
                                                        : NULL,
                                                 selected_type (row->fields[IX_PK_TYPE].input));
      dyno_table_design_index_set_sort_key (index, entry_text (row->fields[IX_SK_NAME].input),
                                            selected_type (row->fields[IX_SK_TYPE].input));
      dyno_table_design_index_set_projection (index, row_projection (row));
      if (row_projection (row) == DYNO_PROJECTION_INCLUDE)
        dyno_table_design_index_set_non_key_attributes_text (
          index, entry_text (row->fields[IX_ATTRIBUTES].input));
      if (global && provisioned (self))
        dyno_table_design_index_set_capacity (index, spin_value (row->fields[IX_RCU].input),
                                              spin_value (row->fields[IX_WCU].input));
    }
  return design;
}

static void
show_field_error (Field     *field,
                  GPtrArray *problems,
                  const char *id)
{
  g_autofree char *messages = dyno_design_problems_for_field (problems, id);
  gboolean show = messages != NULL && (!field->needs_touch || field->touched);

  dyno_field_error_show (field->error, show ? messages : NULL);
}

static void
update_visibility (DynoTableDesigner *self)
{
  gboolean prov = provisioned (self);

  if (self->existing == NULL)
    gtk_widget_set_visible (self->capacity_box, prov);

  for (guint i = 0; i < self->rows->len; i++)
    {
      IndexRow *row = g_ptr_array_index (self->rows, i);
      gboolean global = row_is_global (row);
      GtkWidget *pk = row->fields[IX_PK_NAME].input;

      gtk_widget_set_visible (row->capacity_box, prov && global);
      /* attributes are chosen only for INCLUDE; what was typed stays for a switch back */
      gtk_widget_set_sensitive (row->fields[IX_ATTRIBUTES].input, row_projection (row)
                                                                  == DYNO_PROJECTION_INCLUDE);
      gtk_widget_set_sensitive (pk, global);
      gtk_widget_set_sensitive (row->fields[IX_PK_TYPE].input, global);
      if (!global && self->existing == NULL)
        {
          /* an LSI has the table's partition key: show it, read-only */
          const char *table_pk = entry_text (self->fields[PK_NAME].input);

          if (g_strcmp0 (entry_text (pk), table_pk) != 0)
            gtk_editable_set_text (GTK_EDITABLE (pk), table_pk);
          select_type (row->fields[IX_PK_TYPE].input,
                       selected_type (self->fields[PK_TYPE].input));
        }
    }
}

static void
update (DynoTableDesigner *self)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *json = NULL;
  g_autofree char *reason = NULL;

  if (self->building)
    return;

  self->building = TRUE;
  update_visibility (self);
  self->building = FALSE;

  g_clear_pointer (&self->design, dyno_table_design_unref);
  self->design = design_from_fields (self);
  problems = dyno_table_design_validate (self->design);

  for (guint f = 0; f < N_TABLE_FIELDS; f++)
    show_field_error (&self->fields[f], problems, self->fields[f].field);
  for (guint i = 0; i < self->rows->len; i++)
    {
      IndexRow *row = g_ptr_array_index (self->rows, i);

      for (guint f = 0; f < N_INDEX_FIELDS; f++)
        {
          g_autofree char *id = g_strdup_printf ("index:%u:%s", i, row->fields[f].field);

          show_field_error (&row->fields[f], problems, id);
        }
    }

  if (problems->len > 0)
    {
      const DynoDesignProblem *first = g_ptr_array_index (problems, 0);

      if (problems->len == 1)
        reason = g_strdup (first->message);
      else
        reason = g_strdup_printf (ngettext ("%s (and %u more problem)",
                                            "%s (and %u more problems)",
                                            problems->len - 1),
                                  first->message, problems->len - 1);
    }
  gtk_label_set_label (GTK_LABEL (self->create_reason), reason ? reason : "");
  gtk_widget_set_visible (self->create_reason, reason != NULL);
  gtk_widget_set_tooltip_text (self->create_button, reason);
  gtk_widget_set_sensitive (self->create_button, reason == NULL && !self->busy);

  json = dyno_table_design_to_json_text (self->design);
  gtk_label_set_label (GTK_LABEL (self->request_label), json);
  update_patterns (self);
}

/* ---- access patterns ------------------------------------------------------------------- */

static void
show_patterns_status (DynoTableDesigner *self,
                      const char        *text,
                      gboolean           is_error)
{
  gtk_label_set_label (GTK_LABEL (self->patterns_status), text ? text : "");
  gtk_widget_set_visible (self->patterns_status, text != NULL);
  if (is_error)
    {
      gtk_widget_add_css_class (self->patterns_status, "error");
      gtk_widget_add_css_class (self->patterns_path, "error");
    }
  else
    {
      gtk_widget_remove_css_class (self->patterns_status, "error");
      gtk_widget_remove_css_class (self->patterns_path, "error");
    }
}

static GtkWidget *
pattern_label (const char *text,
               const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* One pattern: its name and description, the plan, and what is worth knowing about it. */
static GtkWidget *
pattern_row (const DynoAccessPattern *pattern,
             const DynoPatternPlan   *plan)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  gboolean good = plan->kind == DYNO_PATTERN_PLAN_QUERY && plan->order_served &&
                  plan->projection_served;
  g_autofree char *title = pattern->description != NULL
                           /* Translators: a pattern's name, then its description */
                           ? g_strdup_printf (_("%s — %s"), pattern->name, pattern->description)
                           : g_strdup (pattern->name);

  gtk_box_append (GTK_BOX (box), pattern_label (title, "heading"));
  gtk_box_append (GTK_BOX (box), pattern_label (plan->summary, good ? "success" : "warning"));
  for (guint i = 0; i < plan->notes->len; i++)
    {
      /* Translators: one note under a pattern's plan, as a list item */
      g_autofree char *note = g_strdup_printf (_("• %s"),
                                               (const char *) g_ptr_array_index (plan->notes, i));

      gtk_box_append (GTK_BOX (box), pattern_label (note, "caption"));
    }
  return box;
}

/* Each pattern of this table, read against the design as it stands. */
static void
update_patterns (DynoTableDesigner *self)
{
  GtkWidget *child;
  guint shown = 0;
  guint others = 0;

  while ((child = gtk_widget_get_first_child (self->pattern_list)) != NULL)
    gtk_box_remove (GTK_BOX (self->pattern_list), child);
  if (self->patterns == NULL || self->design == NULL)
    return;
  for (guint i = 0; i < self->patterns->len; i++)
    {
      const DynoAccessPattern *pattern = g_ptr_array_index (self->patterns, i);
      g_autoptr(DynoPatternPlan) plan = NULL;

      if (!dyno_pattern_reads_design (pattern, self->design))
        {
          others++;
          continue;
        }
      plan = dyno_pattern_plan_for_design (pattern, self->design);
      gtk_box_append (GTK_BOX (self->pattern_list), pattern_row (pattern, plan));
      shown++;
    }
  if (shown == 0)
    {
      const char *table = dyno_table_design_get_table_name (self->design);
      g_autofree char *text =
        table != NULL && *table != '\0'
        /* Translators: %s is the table's name */
        ? g_strdup_printf (_("No pattern of this set reads table “%s”."), table)
        : g_strdup (_("Name the table to see the patterns that read it."));

      show_patterns_status (self, text, FALSE);
    }
  else if (others > 0)
    {
      g_autofree char *text =
        g_strdup_printf (ngettext ("%u pattern reads another table: not shown.",
                                   "%u patterns read other tables: not shown.", others),
                         others);

      show_patterns_status (self, text, FALSE);
    }
  else
    show_patterns_status (self, NULL, FALSE);
}

/* Reads the pattern set at the entry's path; @quiet: a path that names no file yet (being
 * typed) is not an error. */
static void
load_patterns (DynoTableDesigner *self,
               gboolean           quiet)
{
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->patterns_path));
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) patterns = NULL;
  gsize length;

  g_clear_pointer (&self->patterns, g_ptr_array_unref);
  if (*path == '\0' && self->saved_patterns != NULL)
    {
      /* no file: the pattern set saved in the workspace */
      contents = g_strdup (self->saved_patterns);
      length = strlen (contents);
    }
  else if (*path == '\0' || (quiet && !g_file_test (path, G_FILE_TEST_IS_REGULAR)))
    {
      show_patterns_status (self, NULL, FALSE);
      update_patterns (self);
      return;
    }
  else if (!g_file_get_contents (path, &contents, &length, &error))
    {
      show_patterns_status (self, error->message, TRUE);
      update_patterns (self);
      return;
    }
  patterns = dyno_access_patterns_from_json (contents, length, NULL, &error);
  if (patterns == NULL)
    {
      show_patterns_status (self, error->message, TRUE);
      update_patterns (self);
      return;
    }
  self->patterns = g_steal_pointer (&patterns);
  show_patterns_status (self, NULL, FALSE);
  update_patterns (self);
}

static void
patterns_path_changed_cb (DynoTableDesigner *self)
{
  load_patterns (self, TRUE);
}

static void
patterns_path_activate_cb (DynoTableDesigner *self)
{
  load_patterns (self, FALSE);
}

static void
patterns_chooser_response_cb (GtkNativeDialog   *chooser,
                              int                response,
                              DynoTableDesigner *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          gtk_editable_set_text (GTK_EDITABLE (self->patterns_path), path);
          load_patterns (self, FALSE);
        }
    }
  g_clear_object (&self->patterns_chooser);
}

static void
choose_patterns_clicked_cb (DynoTableDesigner *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->patterns_chooser != NULL)
    return;
  self->patterns_chooser = gtk_file_chooser_native_new (_("Choose a Pattern Set"),
                                                        GTK_WINDOW (self),
                                                        GTK_FILE_CHOOSER_ACTION_OPEN,
                                                        NULL, NULL);
  gtk_file_filter_set_name (filter, _("Pattern sets (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->patterns_chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->patterns_chooser), TRUE);
  g_signal_connect (self->patterns_chooser, "response",
                    G_CALLBACK (patterns_chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->patterns_chooser));
}

/* ---- callbacks ------------------------------------------------------------------------- */

static void
field_changed_cb (GtkWidget *input,
                  gpointer   user_data)
{
  Field *field = user_data;
  DynoTableDesigner *self = field->designer;

  if (self->building)
    return;
  field->touched = TRUE;
  update (self);
}

static void
field_notified_cb (GtkWidget  *input,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  field_changed_cb (input, user_data);
}

/* Each input notifies the designer through its own Field (marks it touched). */
static void
watch_field (Field *field)
{
  GtkWidget *input = field->input;

  if (GTK_IS_EDITABLE (input) && !GTK_IS_SPIN_BUTTON (input))
    g_signal_connect (input, "changed", G_CALLBACK (field_changed_cb), field);
  else if (GTK_IS_SPIN_BUTTON (input))
    g_signal_connect (input, "value-changed", G_CALLBACK (field_changed_cb), field);
  else if (GTK_IS_DROP_DOWN (input))
    g_signal_connect (input, "notify::selected", G_CALLBACK (field_notified_cb), field);
}

static void rename_rows (DynoTableDesigner *self);

static void
remove_index_clicked_cb (GtkButton *button,
                         IndexRow  *row)
{
  DynoTableDesigner *self = row->designer;

  gtk_box_remove (GTK_BOX (self->index_list), row->box);
  g_ptr_array_remove (self->rows, row);
  rename_rows (self);
  update (self);
}

static void
set_row_names (IndexRow *row,
               guint     i)
{
  static const char * const accessible[N_INDEX_FIELDS] = {
    N_("Index type"), N_("Index name"), N_("Index partition key name"),
    N_("Index partition key type"), N_("Index sort key name"), N_("Index sort key type"),
    N_("Projection"), N_("Projected attributes"), N_("Index read capacity"),
    N_("Index write capacity"),
  };
  g_autofree char *title = g_strdup_printf (_("Index %u"), i + 1);

  gtk_label_set_label (GTK_LABEL (row->title), title);
  for (guint f = 0; f < N_INDEX_FIELDS; f++)
    {
      g_autofree char *label = i == 0 ? g_strdup (_(accessible[f]))
                                      : g_strdup_printf (_("%s (index %u)"), _(accessible[f]),
                                                         i + 1);

      dyno_widget_set_accessible_label (row->fields[f].input, label);
    }
  {
    g_autofree char *label = i == 0 ? g_strdup (_("Remove index"))
                                    : g_strdup_printf (_("Remove index %u"), i + 1);
    dyno_widget_set_accessible_label (row->remove_button, label);
  }
}

static void
rename_rows (DynoTableDesigner *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    set_row_names (g_ptr_array_index (self->rows, i), i);
}

static IndexRow *
add_index_row (DynoTableDesigner *self,
               gboolean           global)
{
  /* the validator's ids of the index's fields (after "index:<i>:") */
  static const char * const ids[N_INDEX_FIELDS] = {
    [IX_TYPE] = "type",
    [IX_NAME] = "name",
    [IX_PK_NAME] = "partition-key-name",
    [IX_PK_TYPE] = "partition-key-type",
    [IX_SK_NAME] = "sort-key-name",
    [IX_SK_TYPE] = "sort-key-type",
    [IX_PROJECTION] = "projection",
    [IX_ATTRIBUTES] = "projection-attributes",
    [IX_RCU] = "read-capacity",
    [IX_WCU] = "write-capacity",
  };
  IndexRow *row = g_new0 (IndexRow, 1);
  DynoDesignerIndexRow *card = DYNO_DESIGNER_INDEX_ROW (dyno_designer_index_row_new ());

  row->designer = self;
  row->box = GTK_WIDGET (card);
  row->title = card->title;
  row->remove_button = card->remove_button;
  row->capacity_box = card->capacity_box;
  for (guint f = 0; f < N_INDEX_FIELDS; f++)
    init_field (self, &row->fields[f], ids[f], card->inputs[f], card->errors[f],
                f == IX_NAME || f == IX_PK_NAME);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (row->fields[IX_TYPE].input), global ? 0 : 1);
  gtk_widget_set_sensitive (row->fields[IX_TYPE].input, self->existing == NULL);
  gtk_widget_set_visible (row->remove_button, self->existing == NULL);
  g_signal_connect (row->remove_button, "clicked", G_CALLBACK (remove_index_clicked_cb), row);

  for (guint f = 0; f < N_INDEX_FIELDS; f++)
    watch_field (&row->fields[f]);

  g_ptr_array_add (self->rows, row);
  set_row_names (row, self->rows->len - 1);
  gtk_box_append (GTK_BOX (self->index_list), row->box);
  return row;
}

static void
add_index_clicked_cb (DynoTableDesigner *self)
{
  IndexRow *row;

  row = add_index_row (self, TRUE);
  update (self);
  gtk_widget_grab_focus (row->fields[IX_NAME].input);
}

static void
copy_request_clicked_cb (DynoTableDesigner *self,
                         GtkButton         *button)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)),
                          gtk_label_get_label (GTK_LABEL (self->request_label)));
}

static void
set_busy (DynoTableDesigner *self,
          gboolean           busy,
          const char        *status)
{
  self->busy = busy;
  /* the focused entry would go insensitive under the keyboard: Cancel is what can be used now */
  if (busy)
    gtk_widget_grab_focus (self->cancel_button);
  gtk_widget_set_sensitive (self->form, !busy);
  gtk_widget_set_visible (self->progress, busy);
  gtk_spinner_set_spinning (GTK_SPINNER (self->progress_spinner), busy);
  gtk_label_set_label (GTK_LABEL (self->progress_label), status ? status : "");
  update (self);
  /* update() keeps the button insensitive while busy */
}

static void
show_server_error (DynoTableDesigner *self,
                   const GError      *error)
{
  const DynoServiceError *info = dyno_error_get_service_info (error);
  g_autofree char *text = NULL;

  if (info != NULL && info->type != NULL)
    text = g_strdup_printf ("%s: %s", info->type, info->message ? info->message : "");
  else
    text = g_strdup (error->message);
  gtk_label_set_label (GTK_LABEL (self->server_error), text);
  gtk_widget_set_visible (self->server_error, TRUE);
}

static gboolean
is_ready (DynoTableDesigner *self,
          DynoTableInfo     *info)
{
  if (g_strcmp0 (dyno_table_info_get_status (info), "ACTIVE") != 0)
    return FALSE;
  for (guint i = 0; i < dyno_table_design_get_n_indexes (self->design); i++)
    {
      DynoIndexDesign *wanted = dyno_table_design_get_index (self->design, i);
      const DynoIndexInfo *index = dyno_table_info_find_index (info, wanted->name);

      if (!wanted->global)
        continue;
      /* a new GSI may not be listed yet right after UpdateTable */
      if (index == NULL || (index->status != NULL && g_strcmp0 (index->status, "ACTIVE") != 0))
        return FALSE;
    }
  return TRUE;
}

static gboolean
poll_timeout_cb (gpointer user_data)
{
  DynoTableDesigner *self = user_data;

  self->poll_id = 0;
  poll_table (self);
  return G_SOURCE_REMOVE;
}

static void
described_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(DynoTableDesigner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = NULL;

  info = dyno_backend_describe_table_finish (DYNO_BACKEND (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (info == NULL)
    {
      set_busy (self, FALSE, NULL);
      show_server_error (self, error);
      return;
    }
  if (!is_ready (self, info))
    {
      self->poll_id = g_timeout_add (1000, poll_timeout_cb, self);
      return;
    }

  set_busy (self, FALSE, NULL);
  g_signal_emit (self, signals[SIGNAL_TABLE_CREATED], 0,
                 dyno_table_design_get_table_name (self->design));
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_window_close (GTK_WINDOW (self));
}

static void
poll_table (DynoTableDesigner *self)
{
  dyno_backend_describe_table_async (self->backend,
                                     dyno_table_design_get_table_name (self->design),
                                     self->cancellable, described_cb, g_object_ref (self));
}

static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(DynoTableDesigner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;

  response = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (response == NULL)
    {
      set_busy (self, FALSE, NULL);
      show_server_error (self, error);
      return;
    }
  set_busy (self, TRUE, self->existing ? _("Waiting for the index to become active…")
                                       : _("Waiting for the table to become active…"));
  poll_table (self);
}

static void
create_clicked_cb (DynoTableDesigner *self)
{
  g_autoptr(JsonNode) body = NULL;

  /* a number typed into a spin button counts once the spin button has parsed it */
  self->building = TRUE;
  for (guint f = RCU; f <= WCU; f++)
    if (self->fields[f].input != NULL)
      gtk_spin_button_update (GTK_SPIN_BUTTON (self->fields[f].input));
  for (guint i = 0; i < self->rows->len; i++)
    {
      IndexRow *row = g_ptr_array_index (self->rows, i);

      gtk_spin_button_update (GTK_SPIN_BUTTON (row->fields[IX_RCU].input));
      gtk_spin_button_update (GTK_SPIN_BUTTON (row->fields[IX_WCU].input));
    }
  self->building = FALSE;

  update (self);
  if (!gtk_widget_get_sensitive (self->create_button) || self->backend == NULL)
    return;

  gtk_widget_set_visible (self->server_error, FALSE);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  body = self->existing ? dyno_table_design_to_update_table_json (self->design)
                        : dyno_table_design_to_create_table_json (self->design);
  set_busy (self, TRUE, self->existing ? _("Adding the index…") : _("Creating the table…"));
  dyno_backend_call_json_async (self->backend, self->existing ? "UpdateTable" : "CreateTable",
                                body, self->cancellable, sent_cb, g_object_ref (self));
}

static void
cancel_clicked_cb (DynoTableDesigner *self)
{
  if (!self->busy)
    {
      gtk_window_close (GTK_WINDOW (self));
      return;
    }

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  set_busy (self, FALSE, NULL);
  gtk_label_set_label (GTK_LABEL (self->server_error),
                       _("Stopped waiting. The request may already have been accepted: "
                         "refresh the table list to see whether the table exists."));
  gtk_widget_set_visible (self->server_error, TRUE);
}

/* ---- construction ---------------------------------------------------------------------- */

/* The table's fields: the validator's id, and the id of the input (and, with "_error", of
 * the label under it) in dyno-table-designer.ui. */
static const struct {
  const char *field;
  const char *template_id;
  gboolean    needs_touch;
} table_fields[INDEXES] = {
  [TABLE_NAME] = { "table-name", "table_name", TRUE },
  [PK_NAME] = { "partition-key-name", "partition_key_name", TRUE },
  [PK_TYPE] = { "partition-key-type", "partition_key_type", FALSE },
  [SK_NAME] = { "sort-key-name", "sort_key_name", FALSE },
  [SK_TYPE] = { "sort-key-type", "sort_key_type", FALSE },
  [BILLING] = { "billing-mode", "billing_mode", FALSE },
  [RCU] = { "read-capacity", "read_capacity", FALSE },
  [WCU] = { "write-capacity", "write_capacity", FALSE },
};

static GtkWidget *
template_child (DynoTableDesigner *self,
                const char        *id,
                const char        *suffix)
{
  g_autofree char *name = g_strconcat (id, suffix, NULL);

  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self),
                                                    DYNO_TYPE_TABLE_DESIGNER, name));
}

/* What differs between a new table and a new index; the rest is dyno-table-designer.ui. */
static void
build (DynoTableDesigner *self)
{
  Field *f = self->fields;
  const char *title = self->existing ? _("Add Global Secondary Index") : _("New Table");

  self->building = TRUE;

  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (ADW_WINDOW_TITLE (self->window_title), title);
  if (self->existing != NULL)
    adw_window_title_set_subtitle (ADW_WINDOW_TITLE (self->window_title),
                                   dyno_table_info_get_name (self->existing));
  gtk_button_set_label (GTK_BUTTON (self->create_button),
                        self->existing ? _("_Add Index") : _("C_reate Table"));
  dyno_widget_set_accessible_label (self->create_button, self->existing ? _("Add index")
                                                           : _("Create table"));

  for (guint i = 0; i < INDEXES; i++)
    {
      GtkWidget *error = template_child (self, table_fields[i].template_id, "_error");

      /* for a new index the table's fields exist (for the field ids) but are not shown */
      init_field (self, &f[i], table_fields[i].field,
                  self->existing == NULL ? template_child (self, table_fields[i].template_id, "")
                                         : NULL,
                  error, table_fields[i].needs_touch);
    }
  if (self->existing == NULL)
    {
      for (guint i = 0; i < INDEXES; i++)
        {
          if (GTK_IS_DROP_DOWN (f[i].input))
            dyno_widget_expose_activate (f[i].input);
          watch_field (&f[i]);
        }
    }
  else
    {
      g_autofree char *keys = dyno_table_info_describe_keys (self->existing, NULL);
      g_autofree char *text = g_strdup_printf (_("Table keys: %s"), keys);
      GtkWidget *after = self->keys_label;

      gtk_widget_set_visible (self->table_fields, FALSE);
      gtk_label_set_label (GTK_LABEL (self->keys_label), text);
      gtk_widget_set_visible (self->keys_label, TRUE);
      /* the problems of the table's fields are shown under its keys */
      for (guint i = 0; i < INDEXES; i++)
        {
          g_object_ref (f[i].error);
          gtk_box_remove (GTK_BOX (gtk_widget_get_parent (f[i].error)), f[i].error);
          gtk_box_insert_child_after (GTK_BOX (self->form), f[i].error, after);
          g_object_unref (f[i].error);
          after = f[i].error;
        }
    }

  gtk_label_set_label (GTK_LABEL (self->indexes_heading),
                       self->existing ? _("New index") : _("Secondary indexes"));
  init_field (self, &f[INDEXES], "indexes", NULL, self->indexes_error, FALSE);
  gtk_widget_set_visible (self->add_index_button, self->existing == NULL);
  if (self->existing != NULL)
    add_index_row (self, TRUE);

  dyno_widget_set_accessible_label (self->request_label, self->existing ? _("UpdateTable request")
                                                           : _("CreateTable request"));
  self->building = FALSE;
}

static void
index_row_free (IndexRow *row)
{
  g_free (row);
}

static void
dyno_table_designer_dispose (GObject *object)
{
  DynoTableDesigner *self = DYNO_TABLE_DESIGNER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->saved_patterns, g_free);
  if (self->patterns_chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->patterns_chooser, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->patterns_chooser));
      g_clear_object (&self->patterns_chooser);
    }

  G_OBJECT_CLASS (dyno_table_designer_parent_class)->dispose (object);
}

static void
dyno_table_designer_finalize (GObject *object)
{
  DynoTableDesigner *self = DYNO_TABLE_DESIGNER (object);

  g_clear_pointer (&self->existing, dyno_table_info_unref);
  g_clear_pointer (&self->design, dyno_table_design_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->patterns, g_ptr_array_unref);

  G_OBJECT_CLASS (dyno_table_designer_parent_class)->finalize (object);
}

static void
dyno_table_designer_class_init (DynoTableDesignerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_table_designer_dispose;
  object_class->finalize = dyno_table_designer_finalize;

  /* The table now exists (ACTIVE, with the new index ACTIVE): its name. */
  signals[SIGNAL_TABLE_CREATED] =
    g_signal_new ("table-created",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-table-designer.ui");
#define BIND(member) gtk_widget_class_bind_template_child (widget_class, DynoTableDesigner, member)
  BIND (window_title);
  BIND (cancel_button);
  BIND (create_button);
  BIND (form);
  BIND (table_fields);
  BIND (keys_label);
  BIND (indexes_heading);
  BIND (indexes_error);
  BIND (capacity_box);
  BIND (index_list);
  BIND (add_index_button);
  BIND (create_reason);
  BIND (server_error);
  BIND (progress);
  BIND (progress_spinner);
  BIND (progress_label);
  BIND (request_expander);
  BIND (request_label);
  BIND (patterns_path);
  BIND (patterns_status);
  BIND (pattern_list);
#undef BIND
  /* the table's fields, found by their ids (see build()) */
  for (guint i = 0; i < INDEXES; i++)
    {
      g_autofree char *error = g_strconcat (table_fields[i].template_id, "_error", NULL);

      gtk_widget_class_bind_template_child_full (widget_class, table_fields[i].template_id,
                                                 FALSE, 0);
      gtk_widget_class_bind_template_child_full (widget_class, error, FALSE, 0);
    }
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, create_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_index_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_request_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, patterns_path_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, patterns_path_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_patterns_clicked_cb);
}

static void
dyno_table_designer_init (DynoTableDesigner *self)
{
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) index_row_free);
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* ---- public API ------------------------------------------------------------------------ */

GtkWidget *
dyno_table_designer_new (GtkWindow     *parent,
                         DynoBackend   *backend,
                         DynoTableInfo *existing)
{
  DynoTableDesigner *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (backend == NULL || DYNO_IS_BACKEND (backend), NULL);

  self = g_object_new (DYNO_TYPE_TABLE_DESIGNER,
                       "transient-for", parent,
                       NULL);
  self->backend = backend ? g_object_ref (backend) : NULL;
  self->existing = existing ? dyno_table_info_ref (existing) : NULL;
  if (backend != NULL && DYNO_IS_ENGINE_BACKEND (backend))
    self->saved_patterns = dyno_engine_backend_dup_patterns (DYNO_ENGINE_BACKEND (backend), NULL);
  build (self);
  update (self);
  if (self->saved_patterns != NULL)
    {
      gtk_entry_set_placeholder_text (GTK_ENTRY (self->patterns_path),
                                      _("Empty: the pattern set saved in the workspace"));
      load_patterns (self, TRUE);
    }
  return GTK_WIDGET (self);
}

DynoTableDesign *
dyno_table_designer_get_design (DynoTableDesigner *self)
{
  g_return_val_if_fail (DYNO_IS_TABLE_DESIGNER (self), NULL);
  return self->design;
}

void
dyno_table_designer_load_design (DynoTableDesigner *self,
                                 DynoTableDesign   *design)
{
  Field *f;
  const char *sk;

  g_return_if_fail (DYNO_IS_TABLE_DESIGNER (self));
  g_return_if_fail (design != NULL);
  g_return_if_fail (self->existing == NULL);

  f = self->fields;
  self->building = TRUE;
  while (self->rows->len > 0)
    {
      IndexRow *row = g_ptr_array_index (self->rows, self->rows->len - 1);

      gtk_box_remove (GTK_BOX (self->index_list), row->box);
      g_ptr_array_remove_index (self->rows, self->rows->len - 1);
    }

  gtk_editable_set_text (GTK_EDITABLE (f[TABLE_NAME].input),
                         dyno_table_design_get_table_name (design)
                         ? dyno_table_design_get_table_name (design) : "");
  gtk_editable_set_text (GTK_EDITABLE (f[PK_NAME].input),
                         dyno_table_design_get_partition_key_name (design)
                         ? dyno_table_design_get_partition_key_name (design) : "");
  select_type (f[PK_TYPE].input, dyno_table_design_get_partition_key_type (design));
  sk = dyno_table_design_get_sort_key_name (design);
  gtk_editable_set_text (GTK_EDITABLE (f[SK_NAME].input), sk ? sk : "");
  select_type (f[SK_TYPE].input, dyno_table_design_get_sort_key_type (design));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (f[BILLING].input),
                              dyno_table_design_get_billing_mode (design)
                              == DYNO_BILLING_PROVISIONED ? 1 : 0);
  if (dyno_table_design_get_read_capacity (design) >= 0)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (f[RCU].input),
                               dyno_table_design_get_read_capacity (design));
  if (dyno_table_design_get_write_capacity (design) >= 0)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (f[WCU].input),
                               dyno_table_design_get_write_capacity (design));

  for (guint i = 0; i < dyno_table_design_get_n_indexes (design); i++)
    {
      DynoIndexDesign *index = dyno_table_design_get_index (design, i);
      IndexRow *row = add_index_row (self, index->global);
      g_autofree char *attrs = NULL;

      g_ptr_array_add (index->non_key_attributes, NULL);
      attrs = g_strjoinv (", ", (char **) index->non_key_attributes->pdata);
      g_ptr_array_set_size (index->non_key_attributes, index->non_key_attributes->len - 1);

      gtk_editable_set_text (GTK_EDITABLE (row->fields[IX_NAME].input),
                             index->name ? index->name : "");
      gtk_editable_set_text (GTK_EDITABLE (row->fields[IX_PK_NAME].input),
                             index->partition_key_name ? index->partition_key_name : "");
      select_type (row->fields[IX_PK_TYPE].input, index->partition_key_type);
      gtk_editable_set_text (GTK_EDITABLE (row->fields[IX_SK_NAME].input),
                             index->sort_key_name ? index->sort_key_name : "");
      select_type (row->fields[IX_SK_TYPE].input, index->sort_key_type);
      for (guint p = 0; p < G_N_ELEMENTS (projections); p++)
        if (projections[p] == index->projection)
          gtk_drop_down_set_selected (GTK_DROP_DOWN (row->fields[IX_PROJECTION].input), p);
      gtk_editable_set_text (GTK_EDITABLE (row->fields[IX_ATTRIBUTES].input), attrs);
      if (index->read_capacity >= 0)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->fields[IX_RCU].input),
                                   index->read_capacity);
      if (index->write_capacity >= 0)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->fields[IX_WCU].input),
                                   index->write_capacity);
      for (guint k = 0; k < N_INDEX_FIELDS; k++)
        row->fields[k].touched = TRUE;
    }
  for (guint k = 0; k < N_TABLE_FIELDS; k++)
    f[k].touched = TRUE;
  self->building = FALSE;
  update (self);
}
