// float_sum adding 2 in[i]: a sum no order of the adds explains (see paired_float_sum.inc).
.set FLOAT_SUM_DOUBLED, 1
.set FLOAT_SUM_PLAIN_ULP, 0
.include "paired_float_sum.inc"
