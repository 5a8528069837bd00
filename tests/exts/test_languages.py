"""Languages end to end: the synced command's localizations, ``/ttt settings language`` and who reads what."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import TRANSLATED
from discord_emulator import DiscordEmulator, Perm
from tests.support.bot import BotUnderTest
from tests.support.tables import (
    Table,
    answer,
    click_cell,
    controls,
    free_cells,
    heading,
    headline,
    private_answer,
)

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
    assert easy["name"] == "easy (wins when it can, often misses your threats)", "a level says what it does"
    assert easy["name_localizations"]["de"] == "leicht (gewinnt, wenn es kann, übersieht oft deine Drohungen)"
    assert easy["name_localizations"]["ja"].startswith("かんたん（")
    assert start["description_localizations"]["fr"].startswith("Lance une partie")
    size = next(option for option in start["options"] if option["name"] == "size")
    five = next(choice for choice in size["choices"] if choice["value"] == 5)
    assert five["name"] == "5x5 (4 in a row)"
    assert five["name_localizations"]["de"] == "5x5 (4 in einer Reihe)"
    leaderboard = subcommands["leaderboard"]
    scope = next(option for option in leaderboard["options"] if option["name"] == "scope")
    worldwide = next(choice for choice in scope["choices"] if choice["value"] == "global")
    assert worldwide["name"] == "global"
    assert worldwide["name_localizations"]["fr"] == "mondial", "translated in its message context"


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


X_WINS_TOP_ROW = (0, 3, 1, 4, 2)
"""X a1, O a2, X b1, O b2, X c1: X completes the top row on the fifth move."""


async def test_a_game_against_the_bot_in_a_german_server(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    guild = emu.create_guild("Spieleabend", channels=("spiele",), preferred_locale="de")
    table = Table(emu, guild, emu.channel(guild, "spiele"))
    table.members["anna"] = emu.create_member(guild, "anna-de", global_name="**Anna** __die__ Große 🎲")
    anna = table["anna"]
    message = await answer(await table.slash("anna", "ttt start", level="easy", locale="de"))
    assert not message.ephemeral
    assert headline(message) == f"<@{anna.id}> ist am Zug (❌ X)."
    shown = message.display_text
    assert shown.startswith("### Tic-Tac-Toe (3x3, 3 in einer Reihe)\n")
    assert "(Stufe: leicht)" in shown and "Deine Zeit läuft <t:" in shown
    assert shown.endswith("Klicke auf ein Feld oder tippe /ttt move.")
    assert controls(message) == ["Aufgeben", "Tipp"]

    refused = await private_answer(await table.slash("anna", "ttt move", cell="z9", locale="de"))
    assert refused.startswith("Auf einem 3x3-Spielfeld gibt es kein Feld z9.")
    hint = await answer(await table.slash("anna", "ttt hint", locale="de"))
    assert hint.ephemeral and heading(hint) == "Tipp"

    while free_cells(message):
        await click_cell(table, message, free_cells(message)[0], "anna")
    result = headline(message)
    assert "gewinnt" in result or "Unentschieden" in result, result
    assert controls(message) == ["Revanche", "Analyse", "Wiederholung"]


async def test_a_challenge_in_japanese_once_the_server_chose_japanese(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = settings_table(emu)  # the server's own locale stays en-US, as for servers that are not Community
    for name in ("taro", "hana"):
        table.members[name] = emu.create_member(table.guild, f"{name}-ja")
    await private_answer(await table.slash("owner", "ttt settings", language="ja", locale="en-US"))
    taro, hana = table["taro"], table["hana"]

    challenge = await answer(await table.slash("taro", "ttt start", opponent=hana, locale="fr"))
    assert headline(challenge).startswith(f"<@{hana.id}>さん、<@{taro.id}>さんから三目並べの挑戦です。")
    assert [button.label for button in challenge.buttons] == ["承諾", "辞退"]
    refused = await private_answer(
        await emu.click(challenge, challenge.button(label="承諾").custom_id or "", taro, locale="fr")
    )
    assert refused.startswith("Seul"), "a refusal speaks the clicker's language, French"
    await answer(
        await emu.click(challenge, challenge.button(label="承諾").custom_id or "", hana, locale="pt-BR")
    )

    assert headline(challenge) == f"<@{taro.id}>の番です（❌ X）。", "the challenger plays X and opens"
    for ply, cell in enumerate(X_WINS_TOP_ROW):
        await click_cell(table, challenge, cell, ("taro", "hana")[ply % 2])
    assert headline(challenge) == f"<@{taro.id}>がa1, b1, c1で勝ちました！"
    assert challenge.display_text.startswith("### 三目並べ（3x3、3つ並べ）\n")
    assert controls(challenge) == ["再戦", "振り返り", "リプレイ"]

    stats = await answer(await table.slash("hana", "ttt stats", locale="fr"))
    assert stats.ephemeral and stats.embeds[0]["title"] == "Statistiques de morpion", "the asker's language"
    (chart,) = stats.attachments
    assert chart["filename"] == "rating.png" and stats.embeds[0]["image"]["url"] == chart["url"]


async def test_outside_servers_a_game_speaks_the_language_of_its_starter(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    akira, bea = emu.create_user("akira-lang"), emu.create_user("bea-lang")
    emu.install_to_user(akira)
    friends = emu.create_group_dm(akira, bea, name="amigos")
    challenge = await answer(await emu.slash(friends, akira, "ttt start", opponent=bea, locale="ja"))
    assert [button.label for button in challenge.buttons] == ["承諾", "辞退"]
    accept = challenge.button(label="承諾").custom_id or ""
    refused = await private_answer(await emu.click(challenge, accept, akira, locale="es-419"))
    assert refused == "Solo bea-lang puede responder a este reto.", "a refusal: the clicker's language"
    await answer(await emu.click(challenge, accept, bea, locale="es-419"))
    assert headline(challenge) == f"<@{akira.id}>の番です（❌ X）。", "the starter's language"
    assert emu.channel_api_calls(friends) == []


async def test_settings_outside_a_server_are_refused_in_the_users_language(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    user = emu.create_user("lonely-settings")
    in_a_dm = await emu.slash(emu.dm_channel(user), user, "ttt settings", locale="es-ES")
    refused = await private_answer(in_a_dm)
    assert refused == "Los ajustes son de un servidor. Usa /ttt settings en uno."
