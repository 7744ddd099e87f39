/* man_options.c - prints the man page's scenario option list from the input registry; `make man`
 * puts it between the BEGIN/END INPUTS marks of ui/rooftop.1. */
#include <stdio.h>

#include "inputs.h"

int main(void)
{
    inputs_man(stdout);
    return fflush(stdout) == 0 ? 0 : 1;
}
