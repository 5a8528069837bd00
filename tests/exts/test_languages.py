"""Languages end to end: the synced command's localizations, ``/ttt settings language`` and who reads what."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import TRANSLATED
from discord_emulator import DiscordEmulator, Perm
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

SPOKEN = {language.code for language in TRANSLATED}
"""The Discord locales with translations (English is the commands' own text)."""


def synced_ttt(emu: DiscordEmulator) -> dict[str, Any]:
    (command,) = [c for c in emu.world.commands.scope(None) if c["name"] == "ttt"]
    return command


async def test_the_synced_command_is_described_in_every_language(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    ttt = synced_ttt(emu)
    assert set(ttt["description_localizations"]) == SPOKEN
    assert ttt["description_localizations"]["de"] != ttt["description"]
    assert not ttt.get("name_localizations"), "command names stay English"
    subcommands = {option["name"]: option for option in ttt["options"]}
    assert {"start", "move", "settings", "leaderboard", "stats"} <= set(subcommands)
    for name, subcommand in subcommands.items():
        assert set(subcommand["description_localizations"]) == SPOKEN, name
        assert not subcommand.get("name_localizations"), name
        for option in subcommand.get("options") or []:
            where = f"{name} {option['name']}"
            assert set(option["description_localizations"]) == SPOKEN, where
            assert not option.get("name_localizations"), where
            for choice in option.get("choices") or []:
                assert set(choice["name_localizations"]) == SPOKEN, f"{where} {choice['name']}"

    start = subcommands["start"]
    level = next(option for option in start["options"] if option["name"] == "level")
    easy = next(choice for choice in level["choices"] if choice["value"] == "easy")
    assert easy["name_localizations"]["de"] == "leicht"
    assert easy["name_localizations"]["ja"] == "かんたん"
    assert start["description_localizations"]["fr"].startswith("Lance une partie")
    size = next(option for option in start["options"] if option["name"] == "size")
    five = next(choice for choice in size["choices"] if choice["value"] == 5)
    assert five["name"] == "5x5 (4 in a row)"
    assert five["name_localizations"]["de"] == "5x5 (4 in einer Reihe)"


def settings_table(emu: DiscordEmulator, locale: str = "en-US") -> Table:
    guild = emu.create_guild("Réglages", channels=("jeux",), preferred_locale=locale)
    managers = emu.create_role(guild, "Admins", permissions=Perm.MANAGE_GUILD)
    table = Table(emu, guild, emu.channel(guild, "jeux"))
    table.members["owner"] = emu.create_member(guild, "owner-settings", roles=[managers])
    table.members["member"] = emu.create_member(guild, "member-settings")
    return table


async def test_only_managers_see_and_change_a_servers_language(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = settings_table(emu, "fr")
    refused = await private_answer(await table.slash("member", "ttt settings", language="de", locale="de"))
    assert (
        refused
        == "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Einstellungen sehen und ändern."
    )
    refused = await private_answer(await table.slash("member", "ttt settings", locale="en-US"))
    assert "Manage Server" in refused

    shown = await private_answer(await table.slash("owner", "ttt settings", locale="ja"))
    assert "自動" in shown and "Français" in shown, "automatic: the server's own locale, fr"
    done = await private_answer(await table.slash("owner", "ttt settings", language="de", locale="en-US"))
    assert done == "Done: boards, challenges and results here are now in **Deutsch**."
    shown = await private_answer(await table.slash("owner", "ttt settings", locale="pt-BR"))
    assert "**Deutsch**" in shown and shown.startswith("Idioma dos tabuleiros")
    back = await private_answer(await table.slash("owner", "ttt settings", language="auto", locale="es-419"))
    assert back.startswith("Listo:") and "Français" in back
