/* pp_layout.h - Megatron-core's --pipeline-model-parallel-layout: which layers each pipeline
 * chunk builds, as a string ("Et|(tt|)*30mL": the embedding and one decoder layer, thirty
 * chunks of two, the MTP layer and the loss), read into per-chunk counts. */
#ifndef ROOFTOP_PP_LAYOUT_H
#define ROOFTOP_PP_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Chunks (pp x vpp virtual stages) a layout may name, and its text's length in bytes. */
#define PP_LAYOUT_CHUNKS_MAX 512
#define PP_LAYOUT_TEXT_MAX 256

struct pp_layout {
    int chunks;                         /* virtual stages, in Megatron's order */
    int16_t layers[PP_LAYOUT_CHUNKS_MAX]; /* decoder layers ('t') each chunk builds */
    int decoder, mtp;                   /* 't' and 'm' in all */
    int embedding_chunk, loss_chunk;    /* the chunk holding 'E' and 'L'; -1: none */
    int embeddings, losses;             /* how many of each the text names */
    int mtp_outside_last;               /* 'm' outside the last chunk */
};

/*
 * Reads Megatron's grammar: 'E' (embedding), 't' (decoder layer), 'm' (MTP layer), 'L' (loss),
 * '|' between chunks, X*N and (...)*N repeated, commas and spaces ignored. One line naming
 * what is wrong in err on a malformed string (the counts are the caller's to check).
 */
bool pp_layout_parse(const char *text, struct pp_layout *out, char *err, size_t n);

/* Decoder layers of pipeline stage i of pp: its chunks i, i + pp, i + 2 pp, ... (Megatron's
 * interleaved assignment); 0 outside 0..pp-1. */
int64_t pp_layout_stage_layers(const struct pp_layout *l, int64_t pp, int64_t i);

#endif
