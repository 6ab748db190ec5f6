"""Stage 1 of the planner: the time-indexed model of a puzzle (:func:`.build.build_model`), one
constraint family a function, each over the :class:`.context.BuildContext` the families share.

- :mod:`.plan_model`: the slot grid, the options, the model and what reads a plan back;
- :mod:`.context`: what the families share, and the slot grid and cards it starts from;
- :mod:`.slots`, :mod:`.row`, :mod:`.vesicles`, :mod:`.stock`, :mod:`.scoring`: the families;
- :mod:`.market`: the card market's timing; :mod:`.terms`: small term helpers;
- :mod:`.build`: the order the families are called in.
"""
