// float_sum whose plain store out[1] is one ULP off the twin's (see paired_float_sum.inc).
.set FLOAT_SUM_DOUBLED, 0
.set FLOAT_SUM_PLAIN_ULP, 1
.include "paired_float_sum.inc"
