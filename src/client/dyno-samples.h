/* dyno-samples.h: the four sample schemas of data/samples, created and filled on a backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-workbench-model.h"

G_BEGIN_DECLS

/* One sample: its CreateTable request and its items (DynamoDB JSON lines). */
typedef struct {
  char   *name;         /* "file-tree", "audit-log", "sensors", "tenant" */
  char   *table_json;   /* table.json: a CreateTable request */
  GBytes *items_jsonl;  /* items.jsonl */
} DynoSample;

void        dyno_sample_free              (DynoSample *sample);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoSample, dyno_sample_free)

/* The names, in the order DESIGN.md presents them (NULL-terminated). */
const char * const *dyno_samples_get_names       (void);
/* A short translated title and a one-paragraph description of the sample @name (NULL for an
 * unknown name). */
const char *dyno_samples_get_title       (const char *name);
const char *dyno_samples_get_description (const char *name);

/* The four samples from a GResource (the app: "/com/dynotable/DynoTable/samples", holding
 * <name>/table.json and <name>/items.jsonl) or from a directory (data/samples, for tools and
 * tests).  A GPtrArray of DynoSample*, or NULL with the missing file named in @error. */
GPtrArray  *dyno_samples_load_resource   (const char  *prefix,
                                          GError     **error);
GPtrArray  *dyno_samples_load_directory  (GFile       *directory,
                                          GError     **error);

/* The tables of a NoSQL Workbench model as samples (named after their tables): CreateTable
 * requests and items, for a DynoSampleLoader to create and fill. */
GPtrArray  *dyno_samples_from_workbench_model (const DynoWorkbenchModel *model);

/* What loading one sample did. */
typedef struct {
  char     *sample;      /* sample name */
  char     *table_name;  /* prefix + TableName */
  gboolean  created;     /* CreateTable succeeded */
  gboolean  existed;     /* the table was there already (ResourceInUseException) */
  guint     n_items;     /* items written */
  char     *error;       /* why this sample failed, or NULL */
} DynoSampleResult;

void        dyno_sample_result_free      (DynoSampleResult *result);

/* Creates and fills the samples one after the other: CreateTable; when the table already
 * exists it is not touched but its items are written again (puts are idempotent per key, so
 * the sample's items get their sample values back and other items stay); DescribeTable until
 * the table and its indexes are ACTIVE; then BatchWriteItem of every item (25 per request,
 * UnprocessedItems retried).  A sample that fails (e.g. an existing table of that name with
 * another key schema) is reported and the others are still loaded.
 *
 * Signal "progress" (const char *sample, const char *message): "Creating table tenant…",
 * "Table tenant exists: writing its items again…", "Waiting for table tenant to be active…",
 * "Writing 16 items to tenant…", "tenant: 16 items". */
#define DYNO_TYPE_SAMPLE_LOADER (dyno_sample_loader_get_type ())
G_DECLARE_FINAL_TYPE (DynoSampleLoader, dyno_sample_loader, DYNO, SAMPLE_LOADER, GObject)

/* @samples: DynoSample* (a reference is kept). */
DynoSampleLoader *dyno_sample_loader_new         (DynoBackend      *backend,
                                                  GPtrArray        *samples);
/* Table names are @prefix + TableName (default ""). */
void              dyno_sample_loader_set_prefix  (DynoSampleLoader *self,
                                                  const char       *prefix);
/* DescribeTable polling interval (default 500 ms) and how many polls before giving up
 * (default 240). */
void              dyno_sample_loader_set_polling (DynoSampleLoader *self,
                                                  guint             interval_ms,
                                                  guint             max_polls);
/* TRUE when every sample loaded; FALSE with G_IO_ERROR_CANCELLED after Cancel, or with
 * DYNO_ERROR_FAILED naming the samples that failed.  The results are valid in every case. */
void              dyno_sample_loader_run_async   (DynoSampleLoader    *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean          dyno_sample_loader_run_finish  (DynoSampleLoader    *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
/* DynoSampleResult*, one per sample handled so far. */
GPtrArray        *dyno_sample_loader_get_results (DynoSampleLoader *self);
guint             dyno_sample_loader_get_n_done  (DynoSampleLoader *self);
guint             dyno_sample_loader_get_n_total (DynoSampleLoader *self);
/* "Created 4 tables: file-tree (18 items), …" / "audit-log existed: 16 items written again" */
char             *dyno_sample_loader_dup_summary (DynoSampleLoader *self);

G_END_DECLS
