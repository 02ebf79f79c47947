// add_one disagreeing with its twin: in[i] + 2 (see paired_add_one.inc).
.set ADD_ONE_INCREMENT, 2
.include "paired_add_one.inc"
