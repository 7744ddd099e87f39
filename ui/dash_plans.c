/* dash_plans.c - the fastest layouts that fit (b): searched, listed and applied. */
#include "dash_plans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* b: the fastest layouts of this model, GPU count, batch and sequence that fit. */
void dash_plans_open(struct dash *d)
{
    struct plan_result *r = malloc(sizeof *r);
    if (r == NULL) {
        dash_status(d, true, "b: out of memory");
        return;
    }
    plan_search(&d->sc, DASH_PLANS, r);
    d->n_plans = 0;
    for (int i = 0; i < r->n && i < DASH_PLANS; i++)
        if (r->plans[i].fits)
            d->plans[d->n_plans++] = r->plans[i];
    long searched = r->searched;
    free(r);
    if (d->n_plans == 0) {
        dash_status(d, true, "b: none of the %ld layouts searched fits in GPU memory", searched);
        return;
    }
    d->pick = 0;
    d->mode = DM_PLANS;
}

/* Applies plan i: its layout, the rest of the scenario as it is. */
static void plan_apply(struct dash *d, int i)
{
    d->mode = DM_NORMAL;
    if (i < 0 || i >= d->n_plans)
        return;
    struct scenario c = d->sc;
    const struct scenario *p = &d->plans[i].s;
    c.tp = p->tp;
    c.pp = p->pp;
    c.vpp = p->vpp;
    c.cp = p->cp;
    c.ep = p->ep;
    c.sp = p->sp;
    c.zero = p->zero;
    c.micro_batch = p->micro_batch;
    c.recompute = p->recompute;
    c.first_stage_layers = p->first_stage_layers;
    c.last_stage_layers = p->last_stage_layers;
    /* The plan's split is its own (no counted embedding or loss, no layout) and its expert tp
     * the one it searched with. */
    c.account_embedding = p->account_embedding;
    c.account_loss = p->account_loss;
    memcpy(c.pp_layout, p->pp_layout, sizeof c.pp_layout);
    c.etp = p->etp;
    /* The whole layout is the user's choice: the inputs that settle toward the user's wishes
     * take the plan's values as theirs (restored if the plan is refused). */
    struct scenario want = d->want;
    d->want.tp = c.tp;
    d->want.pp = c.pp;
    d->want.micro_batch = c.micro_batch;
    d->want.vpp = c.vpp;
    d->want.cp = c.cp;
    d->want.ep = c.ep;
    if (!dash_try(d, &c, slider_id("tp")))
        d->want = want;
    else {
        char step[32];
        units_duration(d->plans[i].pred.step_seconds, step, sizeof step);
        dash_status(d, false, "layout %d applied: tp %lld, pp %lld (vpp %lld), cp %lld, ep %lld, "
                              "ZeRO %d, micro-batch %lld, recompute %s: predicted step %s", i + 1,
                    (long long)c.tp, (long long)c.pp, (long long)c.vpp, (long long)c.cp,
                    (long long)c.ep, c.zero,
                    (long long)c.micro_batch, recompute_name(c.recompute), step);
    }
}

void dash_plans_key(struct dash *d, uint32_t k)
{
    switch (k) {
    case UK_UP:
    case 'k':
        if (d->pick > 0)
            d->pick--;
        break;
    case UK_DOWN:
    case 'j':
        if (d->pick + 1 < d->n_plans)
            d->pick++;
        break;
    case UK_ENTER:
    case '\n':
    case '\r':
        plan_apply(d, d->pick);
        break;
    case UK_ESC:
    case 'q':
    case 'b':
        d->mode = DM_NORMAL;
        break;
    default:
        if (k >= '1' && k < '1' + (uint32_t)d->n_plans)
            plan_apply(d, (int)(k - '1'));
        break;
    }
}
