/* wire.h: the messages the loader process sends the replaying process over
 * a pipe, on raw system calls. Internal. A message is a type byte, a 32-bit
 * payload length and the payload (host byte order: both ends are one binary
 * on one machine). */
#ifndef RECORDER_REPLAY_WIRE_H
#define RECORDER_REPLAY_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"
#include "replay.h"

enum {
    RP_MSG_HELLO = 'H',  /* ok, error text, nranks, resolution, init function, required level */
    RP_MSG_PREP = 'P',   /* the inputs pre-created, the HDF5 inputs left out */
    RP_MSG_RECORD = 'R', /* one record */
    RP_MSG_ERROR = 'E',  /* error text: the trace cannot be read */
    RP_MSG_END = 'Z'     /* the rank's records are all sent */
};

/* ---- writing (loader side) ---- */
typedef struct rp_out {
    int fd, failed;
    unsigned char *p;
    size_t n, cap, start; /* start: where the current message's header is */
} rp_out;

void rp_out_init(rp_out *o, int fd);
void rp_out_begin(rp_out *o, int type);
void rp_out_u8(rp_out *o, uint8_t v);
void rp_out_u32(rp_out *o, uint32_t v);
void rp_out_i64(rp_out *o, int64_t v);
void rp_out_f64(rp_out *o, double v);
void rp_out_str(rp_out *o, const char *s, uint32_t len); /* s NULL: absent */
void rp_out_end(rp_out *o);                              /* the message is complete */
int rp_out_flush(rp_out *o);
void rp_out_free(rp_out *o);
/* A record, its values decoded with the trace's table entry f. compatible:
 * the entry matches this build's table; path resolves PATH values. */
void rp_out_record(rp_out *o, const rec_record *r, const rec_func_desc *f, int compatible, uint32_t seq,
                   const char *(*path)(void *ctx, int64_t id), void *ctx);

/* ---- reading (replaying side) ---- */
typedef struct rp_in {
    int fd;
    unsigned char buf[1 << 16];
    size_t pos, len;
} rp_in;

typedef struct rp_msg {
    int type;
    unsigned char *data;
    size_t len, pos;
    int bad; /* read past the end */
} rp_msg;

void rp_in_init(rp_in *in, int fd);
/* 1: *m holds the next message (free m->data); 0: the pipe closed. */
int rp_in_next(rp_in *in, rp_msg *m);
uint8_t rp_msg_u8(rp_msg *m);
uint32_t rp_msg_u32(rp_msg *m);
int64_t rp_msg_i64(rp_msg *m);
double rp_msg_f64(rp_msg *m);
/* A NUL-terminated copy (malloc'd; NULL when absent). */
char *rp_msg_str(rp_msg *m);
/* A record message -> a malloc'd rp_rec (one block; free() it); NULL if malformed. */
rp_rec *rp_msg_record(rp_msg *m);

#endif
