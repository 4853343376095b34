/* files.c: the reader's stream files within the limit on open files
 * (files.h). */
#include "files.h"

#include "reader_fs.h"

#include <pthread.h>
#include <sys/resource.h>

unsigned rec_reader_file_budget;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static rec_stream_file *newest, *oldest;
static unsigned nopen;

/* What the limit leaves for streams: the rest is for the trace's other
 * files, the outputs and the program's own. */
static unsigned budget(void)
{
    if (!rec_reader_file_budget) {
        struct rlimit rl;
        rlim_t cur = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? rl.rlim_cur : 1024;
        if (cur == RLIM_INFINITY || cur > (1u << 20))
            cur = 1u << 20;
        rec_reader_file_budget = cur > 512 ? (unsigned)cur - 256 : (unsigned)cur / 2;
    }
    return rec_reader_file_budget;
}

static void unlink_file(rec_stream_file *f)
{
    if (f->prev)
        f->prev->next = f->next;
    else
        newest = f->next;
    if (f->next)
        f->next->prev = f->prev;
    else
        oldest = f->prev;
    f->prev = f->next = NULL;
}

static void push_newest(rec_stream_file *f)
{
    f->prev = NULL;
    f->next = newest;
    if (newest)
        newest->prev = f;
    newest = f;
    if (!oldest)
        oldest = f;
}

FILE *rec_stream_file_use(rec_stream_file *f)
{
    pthread_mutex_lock(&lock);
    if (f->file) {
        if (newest != f) {
            unlink_file(f);
            push_newest(f);
        }
    } else {
        while (nopen >= budget() && oldest) {
            rec_stream_file *parked = oldest;
            unlink_file(parked);
            fclose(parked->file);
            parked->file = NULL;
            nopen--;
        }
        f->file = rec_reader_fs_hook ? rec_reader_fs_hook->open(f->path) : fopen(f->path, "rb");
        if (f->file) {
            push_newest(f);
            nopen++;
        }
    }
    FILE *file = f->file;
    pthread_mutex_unlock(&lock);
    return file;
}

void rec_stream_file_close(rec_stream_file *f)
{
    pthread_mutex_lock(&lock);
    if (f->file) {
        unlink_file(f);
        fclose(f->file);
        f->file = NULL;
        nopen--;
    }
    pthread_mutex_unlock(&lock);
}
