// float_sum agreeing with its twin up to the order of its float atomic adds (see paired_float_sum.inc).
.set FLOAT_SUM_DOUBLED, 0
.set FLOAT_SUM_PLAIN_ULP, 0
.include "paired_float_sum.inc"
