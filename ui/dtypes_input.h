/* dtypes_input.h - typing the value the number formats' box (key d) stores in each format. */
#ifndef ROOFTOP_UI_DTYPES_INPUT_H
#define ROOFTOP_UI_DTYPES_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dtypes_input_result {
    DTI_EDITED,   /* the text changed (or the key did nothing) */
    DTI_APPLIED,  /* Enter: *value is the number typed */
    DTI_REFUSED,  /* Enter on text that is not a finite number: err says so */
    DTI_CLOSED,   /* Esc, d or q: the box closes */
};

/* One key k on the text buf (n bytes): digits, '.', 'e', 'E', '-', '+' append, BS and Del
 * delete the last character, Enter reads the number into *value. */
enum dtypes_input_result dtypes_input_key(char *buf, size_t n, uint32_t k, double *value,
                                          char *err, size_t errlen);

#endif
