"""The solver-neutral encoding: the linear model (:mod:`.linear`) the rules are written against and
the abstract action a slot of the planner's model holds (:mod:`.acts`). Standard library only and no
solver: the rules' encodings beside the engine (``solver/game/rules/``) import it, the optimiser
(``solver/optimise/``) builds on it, and the game package never imports the optimiser."""
