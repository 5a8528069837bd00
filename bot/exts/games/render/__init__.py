"""What games look like on Discord: the text and embeds of every message, by what they show.

Everything here is a pure function of the service's views and the reader's language
(:class:`bot.i18n.Texts`: every sentence is a gettext message), so it is easy to test and
never touches the network. :mod:`.common` holds what the others share; :mod:`.board` the
board and challenge messages; :mod:`.answers` the private answers; :mod:`.hint`,
:mod:`.records` and :mod:`.review` the answers to the commands of those names.
"""
