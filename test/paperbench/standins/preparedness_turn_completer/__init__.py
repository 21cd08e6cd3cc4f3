"""Stand-in for preparedness_turn_completer: completers that answer from the parity test's script
(`set_answerer`) instead of a model, and record every conversation they are asked, with the model
and the response format (the pydantic model) the call used."""
