/* dyno-engine-wal.c: the workspace's lock and its WAL checkpoints, off the committing thread
 *
 * SQLite checkpoints a WAL database in the thread that commits, once the WAL passes 1000
 * pages: with a million items of 1 KB loaded through `serve`, one BatchWriteItem in a few
 * hundred waited for it (245 ms at worst).  The engine turns that off and installs a WAL hook
 * of its own, which hands the copying to a thread with a connection of its own: its PASSIVE
 * checkpoints copy pages into the database without blocking the writer.
 *
 * A PASSIVE checkpoint never catches up with a writer that never pauses, and SQLite starts the
 * WAL over (overwrites it from its beginning) only once every page in it has been copied.  So
 * past wal_restart pages the committing thread finishes the job itself when little is left to
 * copy (the pages committed since the thread's last pass, then a sync of the database file),
 * and past wal_limit pages it does so whatever is left: the WAL never holds more than
 * wal_limit pages plus one transaction.  After IDLE_USEC without a commit the thread copies
 * what is left and truncates the WAL, so an idle workspace is the database file alone.
 *
 * Durability is SQLite's own (synchronous=NORMAL: a commit is in the WAL before it is
 * answered, and a checkpoint syncs the database before the WAL is reused); closing the
 * engine closes the thread's connection first, so that the engine's own connection is the
 * last one and checkpoints and deletes the WAL as SQLite always does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE     /* sync_file_range() */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "dyno-engine-private.h"

#define fail(error, code, ...) \
  g_set_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_##code, __VA_ARGS__)

/* In WAL frames (pages): 1000 is SQLite's own auto-checkpoint (8 MB with 8 KB pages). */
#define WAL_STEP     1000
#define WAL_RESTART  4000
#define WAL_LIMIT    16000
/* Past WAL_RESTART, the committing thread finishes a checkpoint when at most this many pages
 * are left to copy, or after the thread's second pass (each pass copies what was committed
 * during the one before, which stops shrinking at about what is committed during a sync). */
#define WAL_CATCH_UP 256
#define WAL_PASSES   2
#define IDLE_USEC    (2 * G_USEC_PER_SEC)
#define LOCK_WAIT_USEC (G_USEC_PER_SEC / 2)

struct _DynoEngineWal {
  int        lock_fd;       /* the workspace file, flock()ed: -1 when none */
  int        wal_fd;        /* its WAL, for the thread's writeback; -1 when none */
  sqlite3   *db;            /* the checkpoint thread's connection */
  GThread   *thread;
  GThread   *flusher;       /* flush_thread() */
  GMutex     lock;          /* guards what follows; signalled on any change by ::cond */
  GCond      cond;
  gboolean   stop;
  gboolean   wanted;        /* the thread should checkpoint now */
  gboolean   flush_wanted;  /* the flusher should start the writeback of both files */
  gboolean   running;       /* a checkpoint runs (the thread's or the committer's) */
  int        frames;        /* pages in the WAL after the last commit */
  int        backfilled;    /* of which copied into the database (as far as known) */
  guint      generation;    /* counts the WAL's restarts seen by the hook */
  int        defer_until;   /* the committer does not checkpoint below this many frames */
  int        passes;        /* the thread's passes since the WAL passed wal_restart */
  guint64    commits;
  guint64    commits_truncated; /* ::commits when the WAL was last truncated */
  gint64     last_commit;   /* monotonic */
  int        step, restart, limit;
};

/* ---- the lock ---------------------------------------------------------------------------- */

/* One process at a time: the engine keeps the schemas in memory, so a second writer would go
 * unseen.  An flock() on the workspace file, held until the engine closes, refuses a second
 * engine (in this process or another); it does not touch SQLite's own locks (POSIX locks on
 * Linux), so `sqlite3` can still read the workspace while the engine has it open.  The
 * descriptor stays open until SQLite's connections are closed: closing any descriptor of a
 * file drops every POSIX lock the process holds on it. */
gboolean
dyno_engine_wal_lock (DynoEngine  *self,
                      const char  *path,
                      GError     **error)
{
  int fd;

  g_assert (self->wal == NULL);
  fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 && (errno == EACCES || errno == EROFS))
    fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;

      fail (error, INTERNAL, "Cannot open the workspace %s: %s", path, g_strerror (saved));
      return FALSE;
    }
  /* an engine being closed (on another thread, or in a process that is exiting) lets go
   * in a moment: wait for it a little, as SQLite's busy timeout did for its own lock */
  for (gint64 until = g_get_monotonic_time () + LOCK_WAIT_USEC;
       flock (fd, LOCK_EX | LOCK_NB) != 0;)
    {
      int saved = errno;

      if ((saved == EWOULDBLOCK || saved == EINTR) && g_get_monotonic_time () < until)
        {
          g_usleep (5000);
          continue;
        }

      close (fd);
      if (saved == EWOULDBLOCK)
        fail (error, INTERNAL, "The workspace %s is open in another process", path);
      else
        fail (error, INTERNAL, "Cannot lock the workspace %s: %s", path, g_strerror (saved));
      return FALSE;
    }
  self->wal = g_new0 (DynoEngineWal, 1);
  self->wal->lock_fd = fd;
  self->wal->wal_fd = -1;
  self->wal->step = WAL_STEP;
  self->wal->restart = WAL_RESTART;
  self->wal->limit = WAL_LIMIT;
  g_mutex_init (&self->wal->lock);
  g_cond_init (&self->wal->cond);
  return TRUE;
}

/* ---- checkpoints ------------------------------------------------------------------------- */

/* One checkpoint on @db; the caller has set ::running.  Records how far it copied. */
static int
checkpoint (DynoEngineWal *wal,
            sqlite3       *db,
            int            mode,
            int           *out_log,
            int           *out_done)
{
  guint generation;
  int log = 0, done = 0;
  gint64 start = g_get_monotonic_time ();
  int rc;

  g_mutex_lock (&wal->lock);
  generation = wal->generation;
  g_mutex_unlock (&wal->lock);
  rc = sqlite3_wal_checkpoint_v2 (db, NULL, mode, &log, &done);
  g_debug ("checkpoint %s%s: %d of %d pages, %d, %.1f ms", db == wal->db ? "thread" : "commit",
           mode == SQLITE_CHECKPOINT_TRUNCATE ? " truncate" : "", done, log, rc,
           (g_get_monotonic_time () - start) / 1000.0);
  g_mutex_lock (&wal->lock);
  wal->running = FALSE;
  if (rc == SQLITE_OK && generation == wal->generation)
    wal->backfilled = MAX (wal->backfilled, done);
  g_cond_broadcast (&wal->cond);
  g_mutex_unlock (&wal->lock);
  *out_log = log;
  *out_done = done;
  return rc;
}

static void
start_writeback (int fd)
{
#ifdef SYNC_FILE_RANGE_WRITE
  sync_file_range (fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
  fdatasync (fd);
#endif
}

/* SQLite syncs the database only after a checkpoint that reached the WAL's end (one overtaken
 * by commits leaves its pages to the kernel's writeback, 30 s later), and the WAL before each
 * checkpoint: the commit that finishes the job would wait for both syncs of everything written
 * since.  After each pass of the checkpoint thread, this thread starts their writing instead
 * (without waiting for it; but starting it can take a while on a busy disk, which the
 * checkpoint thread does not wait for either). */
static gpointer
flush_thread (gpointer data)
{
  DynoEngineWal *wal = data;

  g_mutex_lock (&wal->lock);
  while (!wal->stop)
    {
      gint64 start;

      if (!wal->flush_wanted)
        {
          g_cond_wait (&wal->cond, &wal->lock);
          continue;
        }
      wal->flush_wanted = FALSE;
      g_mutex_unlock (&wal->lock);
      start = g_get_monotonic_time ();
      start_writeback (wal->lock_fd);
      if (wal->wal_fd >= 0)
        start_writeback (wal->wal_fd);
      g_debug ("writeback started: %.1f ms", (g_get_monotonic_time () - start) / 1000.0);
      g_mutex_lock (&wal->lock);
    }
  g_mutex_unlock (&wal->lock);
  return NULL;
}

static gpointer
checkpoint_thread (gpointer data)
{
  DynoEngineWal *wal = data;

  g_mutex_lock (&wal->lock);
  while (!wal->stop)
    {
      gboolean idle = FALSE;
      guint64 commits;
      int log, done, rc;

      if (wal->running)
        {
          g_cond_wait (&wal->cond, &wal->lock);
          continue;
        }
      if (!wal->wanted)
        {
          gint64 until = wal->last_commit + IDLE_USEC;

          if (wal->commits == wal->commits_truncated)
            {
              g_cond_wait (&wal->cond, &wal->lock);
              continue;
            }
          if (g_get_monotonic_time () < until)
            {
              g_cond_wait_until (&wal->cond, &wal->lock, until);
              continue;
            }
          idle = TRUE;
        }
      wal->wanted = FALSE;
      wal->running = TRUE;
      commits = wal->commits;
      g_mutex_unlock (&wal->lock);

      rc = checkpoint (wal, wal->db, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
      g_mutex_lock (&wal->lock);
      if (rc == SQLITE_OK && done > 0)
        {
          wal->flush_wanted = TRUE;
          g_cond_broadcast (&wal->cond);
        }
      g_mutex_unlock (&wal->lock);
      g_mutex_lock (&wal->lock);
      if (log >= wal->restart)
        wal->passes++;
      g_mutex_unlock (&wal->lock);
      if (rc == SQLITE_OK && idle && log == done)
        {
          /* all copied: truncating only waits for a writer between two statements (or gives
           * up after the busy timeout) */
          gboolean truncate;

          g_mutex_lock (&wal->lock);
          truncate = !wal->running && !wal->stop;
          wal->running = truncate;
          g_mutex_unlock (&wal->lock);
          if (truncate
              && checkpoint (wal, wal->db, SQLITE_CHECKPOINT_TRUNCATE, &log, &done) == SQLITE_OK)
            {
              g_mutex_lock (&wal->lock);
              if (wal->commits == commits)
                {
                  wal->frames = 0;
                  wal->backfilled = 0;
                  wal->defer_until = 0;
                  wal->passes = 0;
                  wal->generation++;
                }
              g_mutex_unlock (&wal->lock);
            }
        }
      g_mutex_lock (&wal->lock);
      /* done, or not possible now (a reader on another connection holds the WAL, a writer
       * was busy): the next try comes after the next commit and pause */
      if (idle)
        wal->commits_truncated = commits;
    }
  g_mutex_unlock (&wal->lock);
  return NULL;
}

/* Called by SQLite after each commit of the engine's connection, in the committing thread,
 * with the number of pages in the WAL. */
static int
wal_hook (gpointer    data,
          sqlite3    *db,
          const char *name,
          int         frames)
{
  DynoEngineWal *wal = data;
  gboolean finish = FALSE;
  int pending;

  g_mutex_lock (&wal->lock);
  if (frames < wal->frames)
    {
      /* SQLite started the WAL over */
      wal->backfilled = 0;
      wal->defer_until = 0;
      wal->passes = 0;
      wal->generation++;
    }
  wal->frames = frames;
  wal->commits++;
  wal->last_commit = g_get_monotonic_time ();
  pending = frames - MIN (wal->backfilled, frames);
  if (frames >= wal->limit && frames >= wal->defer_until)
    {
      while (wal->running)
        g_cond_wait (&wal->cond, &wal->lock);
      finish = TRUE;
    }
  else if (!wal->running && pending > 0)
    {
      /* A pass of the thread is not asked for while one runs: past wal_restart, the commit
       * after it finds few pages left, and finishes. */
      if (frames >= wal->restart && frames >= wal->defer_until
          && (pending <= WAL_CATCH_UP || wal->passes >= WAL_PASSES))
        finish = TRUE;
      else if (pending >= wal->step || frames >= wal->restart)
        {
          wal->wanted = TRUE;
          g_cond_broadcast (&wal->cond);
        }
    }
  if (finish)
    wal->running = TRUE;
  g_mutex_unlock (&wal->lock);

  if (finish)
    {
      int log, done;

      if (checkpoint (wal, db, SQLITE_CHECKPOINT_PASSIVE, &log, &done) != SQLITE_OK
          || log != done)
        {
          /* a reader on another connection (`sqlite3`) holds old pages: the WAL cannot start
           * over until it is done; no second try for the next step's worth of pages */
          g_mutex_lock (&wal->lock);
          wal->defer_until = frames + wal->step;
          g_mutex_unlock (&wal->lock);
        }
    }
  (void) name;
  return SQLITE_OK;
}

void
dyno_engine_wal_start (DynoEngine *self)
{
  DynoEngineWal *wal = self->wal;
  sqlite3 *db = NULL;

  if (wal == NULL || sqlite3_threadsafe () == 0)
    return;   /* in memory, or a SQLite without threads: its own auto-checkpoint stays */
  if (sqlite3_open_v2 (self->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL)
      != SQLITE_OK
      /* a first read opens the WAL on this connection (a checkpoint does not) */
      || sqlite3_exec (db, "PRAGMA cache_size=16; SELECT count(*) FROM sqlite_master",
                       NULL, NULL, NULL) != SQLITE_OK)
    {
      g_warning ("No checkpoint thread for %s (%s): SQLite checkpoints as it commits",
                 self->path, db ? sqlite3_errmsg (db) : "out of memory");
      sqlite3_close (db);
      return;
    }
  /* its TRUNCATE waits this long for the writer to finish a statement before giving up */
  sqlite3_busy_timeout (db, 100);
  /* SQLite keeps the same WAL file until the last connection closes (it starts it over or
   * truncates it, never replaces it) */
  {
    g_autofree char *wal_path = g_strconcat (self->path, "-wal", NULL);

    wal->wal_fd = open (wal_path, O_RDONLY | O_CLOEXEC);
  }
  wal->db = db;
  wal->last_commit = g_get_monotonic_time ();
  /* replaces SQLite's auto-checkpoint, which is a WAL hook too */
  sqlite3_wal_hook (self->db, wal_hook, wal);
  wal->thread = g_thread_new ("dyno-checkpoint", checkpoint_thread, wal);
  wal->flusher = g_thread_new ("dyno-writeback", flush_thread, wal);
}

/* Stops the thread and closes its connection: before the engine's connection is closed. */
void
dyno_engine_wal_stop (DynoEngine *self)
{
  DynoEngineWal *wal = self->wal;

  if (wal == NULL || wal->thread == NULL)
    return;
  g_mutex_lock (&wal->lock);
  wal->stop = TRUE;
  g_cond_broadcast (&wal->cond);
  g_mutex_unlock (&wal->lock);
  g_thread_join (g_steal_pointer (&wal->thread));
  g_thread_join (g_steal_pointer (&wal->flusher));
  sqlite3_wal_hook (self->db, NULL, NULL);
  sqlite3_close (g_steal_pointer (&wal->db));
}

/* After the engine's connection is closed: drops the lock. */
void
dyno_engine_wal_free (DynoEngine *self)
{
  DynoEngineWal *wal = g_steal_pointer (&self->wal);

  if (wal == NULL)
    return;
  g_assert (wal->thread == NULL);
  if (wal->wal_fd >= 0)
    close (wal->wal_fd);
  if (wal->lock_fd >= 0)
    close (wal->lock_fd);
  g_mutex_clear (&wal->lock);
  g_cond_clear (&wal->cond);
  g_free (wal);
}

void
dyno_engine_set_wal_limits (DynoEngine *self,
                            guint       step,
                            guint       restart,
                            guint       limit)
{
  DynoEngineWal *wal;

  g_return_if_fail (DYNO_IS_ENGINE (self));
  g_return_if_fail (step > 0 && step <= restart && restart <= limit && limit <= G_MAXINT);
  wal = self->wal;
  if (wal == NULL)
    return;
  g_mutex_lock (&wal->lock);
  wal->step = (int) step;
  wal->restart = (int) restart;
  wal->limit = (int) limit;
  g_mutex_unlock (&wal->lock);
}
