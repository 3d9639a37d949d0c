"""The demo's people: family and given names by country, and the Go grades they hold."""

from __future__ import annotations

UA_FAMILY = [
    "Shevchenko",
    "Kovalenko",
    "Bondarenko",
    "Tkachenko",
    "Kravchenko",
    "Oliynyk",
    "Shevchuk",
    "Polishchuk",
    "Lysenko",
    "Marchenko",
    "Melnyk",
    "Rudenko",
    "Savchenko",
    "Petrenko",
    "Moroz",
    "Pavlenko",
    "Klymenko",
    "Honchar",
    "Ivanchuk",
    "Sydorenko",
    "Hnatyuk",
    "Yaremchuk",
    "Fedorchuk",
    "Kushnir",
    "Levchenko",
]


UA_GIVEN_M = [
    "Andriy",
    "Oleksandr",
    "Dmytro",
    "Serhiy",
    "Taras",
    "Bohdan",
    "Yaroslav",
    "Ivan",
    "Mykola",
    "Vasyl",
    "Artem",
    "Maksym",
    "Ostap",
    "Roman",
]


UA_GIVEN_F = ["Olena", "Iryna", "Oksana", "Natalia", "Yulia", "Sofia", "Daryna", "Kateryna"]


RU_FAMILY = [
    "Ivanov",
    "Smirnov",
    "Kuznetsov",
    "Popov",
    "Vasiliev",
    "Petrov",
    "Sokolov",
    "Mikhailov",
    "Novikov",
    "Fedorov",
    "Morozov",
    "Volkov",
    "Alekseev",
    "Lebedev",
    "Semenov",
    "Egorov",
    "Pavlov",
    "Kozlov",
    "Stepanov",
    "Nikolaev",
]


RU_GIVEN_M = [
    "Artem",
    "Maxim",
    "Ivan",
    "Mikhail",
    "Alexander",
    "Dmitry",
    "Kirill",
    "Matvey",
    "Timofey",
    "Lev",
]


RU_GIVEN_F = ["Anna", "Maria", "Sofia", "Alisa", "Varvara", "Polina", "Eva", "Veronika"]


WORLD = [
    ("Tanaka", "Hiro", "JP"),
    ("Dupont", "Claire", "FR"),
    ("Müller", "Jonas", "DE"),
    ("Rossi", "Marco", "IT"),
    ("Smith", "Emma", "GB"),
    ("Novak", "Petr", "CZ"),
    ("Kowalski", "Jan", "PL"),
    ("Jansen", "Sanne", "NL"),
    ("Silva", "Pedro", "PT"),
    ("Garcia", "Lucia", "ES"),
    ("Berg", "Erik", "SE"),
    ("Nagy", "Bence", "HU"),
    ("Popescu", "Ana", "RO"),
    ("Horvat", "Luka", "HR"),
    ("Ito", "Yuki", "JP"),
]


GO_GRADES = [
    "25k",
    "20k",
    "17k",
    "15k",
    "12k",
    "10k",
    "8k",
    "6k",
    "5k",
    "4k",
    "3k",
    "2k",
    "1k",
    "1d",
    "2d",
    "3d",
    "4d",
    "5d",
]
