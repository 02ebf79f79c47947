// add_one agreeing with its twin (see paired_add_one.inc).
.set ADD_ONE_INCREMENT, 1
.include "paired_add_one.inc"
