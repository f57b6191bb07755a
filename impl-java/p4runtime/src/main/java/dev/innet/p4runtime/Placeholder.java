package dev.innet.p4runtime; final class Placeholder {}
