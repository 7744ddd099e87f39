/* files.h - the one file layer: a bounded reader, an atomic writer, and the search path every
 * data kind (GPU and model specs, scenarios, points) is found on. */
#ifndef ROOFTOP_FILES_H
#define ROOFTOP_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FILES_ERR_MAX 512

/*
 * Reads the file at path whole, in one pass (so a file is read once and its bytes go nowhere
 * else), into a malloc'ed NUL-terminated buffer the caller frees: a regular file, or a pipe
 * read once to its end ("-" for standard input, /dev/stdin, a FIFO), with the same bound of
 * max bytes. A pipe's read waits at most files_set_pipe_wait's bound. Refuses what is neither
 * (a directory, a terminal or other device, a socket) without waiting on it. On error writes
 * one line "PATH: what is wrong" to err, sets *data to NULL and returns false.
 */
bool files_read(const char *path, size_t max, char **data, size_t *len, char *err,
                size_t errlen);

/* How long files_read waits on a pipe, in all, in ms: -1 (the default, for the command line)
 * as long as the writer takes, as every Unix tool; the dashboard bounds it, so that a FIFO
 * nobody writes to cannot freeze the screen. */
void files_set_pipe_wait(int ms);

/* A pipe is read once: a later files_read of the same pipe (a FIFO, or standard input as "-"
 * or /dev/stdin) in this process gives the bytes the first read got, until this forgets
 * them (the dashboard does after each o, so that a FIFO opened again is read again). */
void files_forget_pipes(void);

/* How messages name path: "standard input" for "-", else path itself. */
const char *files_name_shown(const char *path);

/*
 * The atomic writer. files_out_open makes a temporary file beside the target (in the same
 * directory, so the rename is atomic); the caller writes through o->f; files_out_commit
 * flushes, fsyncs, renames it over the target and fsyncs the directory. A reader, a crash or
 * a full disk sees the old file or the new one, never part of one. A target that is a
 * symbolic link is written through to the file it points to (the link stays); an existing
 * target keeps its permission bits; a new one gets 0666 less the umask. A directory, device
 * or pipe as the target is refused. Both return false with one line "PATH: ..." in err;
 * after a failed open there is nothing to abort, after commit (success or not) nothing is
 * left to free, and a failed commit removes the temporary file and leaves the target as it
 * was. files_out_abort drops an open writer without touching the target.
 *
 * Refused unless forced (files_set_force, from the --force of the commands that write), as cp
 * and editors refuse: an existing target the user may not write (read-only, another user's,
 * on a read-only file system: the rename would need only the directory's permission), and a
 * target with more than one hard link (the rename would split them: the other names would
 * keep the old content; forced, this name alone gets the new one). Each open also removes the
 * temporary files that killed writers left in the target's directory (".NAME.PID.N.X.tmp"
 * whose PID no longer runs).
 */
struct files_out {
    FILE *f;
    char *target;   /* where the rename goes: path with symbolic links followed */
    char *tmp;      /* the temporary file beside it */
    char *shown;    /* the path as given, for messages */
};
bool files_out_open(struct files_out *o, const char *path, char *err, size_t errlen);
/* Whether the writer replaces what it otherwise refuses (above); off unless a command's
 * --force turned it on. */
void files_set_force(bool on);
bool files_out_commit(struct files_out *o, char *err, size_t errlen);
void files_out_abort(struct files_out *o);

/* Writes len bytes as the whole of path, atomically as above. */
bool files_write(const char *path, const void *data, size_t len, char *err, size_t errlen);

/*
 * Checks, before long work whose result goes to path, that the atomic writer will be able to
 * write it there: the target is not a directory or device and its directory takes a new
 * file (one is made and removed). False with one line "PATH: ..." in err.
 */
bool files_check_writable(const char *path, char *err, size_t errlen);

/*
 * The search path. Data of a kind ("gpus", "models", "scenarios", "points") is looked up, in
 * order, in: $XDG_CONFIG_HOME/rooftop/KIND (~/.config/rooftop/KIND when it is unset; the
 * user's own files first, so their h100-sxm.json overrides the shipped one),
 * $ROOFTOP_SPECS/KIND, ./specs/KIND (a source tree), specs/KIND beside the executable (a
 * built, uninstalled rooftop run from another directory), and the installed
 * $(PREFIX)/share/rooftop/specs/KIND. Paths are built to their full length (none is cut).
 */
#define FILES_DIRS_MAX 5
struct files_dirs {
    char *dir[FILES_DIRS_MAX];
    size_t n;
};
/* Fills the directories of kind; false when out of memory (then nothing to free). */
bool files_dirs(const char *kind, struct files_dirs *out);
void files_dirs_free(struct files_dirs *d);
/* "DIR1, DIR2, ..." of kind into buf (cut with "..." if it does not fit), for the one line
 * that says where rooftop looked. */
void files_dirs_describe(const char *kind, char *buf, size_t n);

/* The first KIND directory holding the regular file NAME (e.g. "h100-sxm.json"): a
 * malloc'ed path, or NULL when none has it (or out of memory). */
char *files_find(const char *kind, const char *name);

/* files_find of "NAME.json": where the preset NAME of a kind is. */
char *files_find_json(const char *kind, const char *name);

/*
 * Resolves a NAME|FILE argument of a kind to the path to read (malloc'ed; NULL only when out
 * of memory): a file (see files_is_path) as given; a name as NAME.json found on the search
 * path; a name found nowhere as given, so the reader's error names what was typed. The
 * source tree's relative "specs/KIND/NAME.json", where it does not exist (run outside the
 * tree after `make install`), is NAME.json on the search path.
 */
char *files_resolve(const char *kind, const char *name_or_file);

/* Whether a NAME|FILE argument names a file rather than a preset: "-" (standard input), or it
 * holds a '/' or ends in ".json". */
bool files_is_path(const char *name_or_file);

/* A malloc'ed "A/B" (NULL when out of memory): paths of any length, never cut. */
char *files_join(const char *a, const char *b);

#endif
