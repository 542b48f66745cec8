// SPDX-License-Identifier: GPL-2.0-or-later
#include "control-hello.h"

#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

QByteArray makeHelloNonce()
{
	QByteArray bytes(32, '\0');
	QRandomGenerator *random = QRandomGenerator::system();
	for (char &byte : bytes)
		byte = static_cast<char>(random->bounded(256));
	return bytes.toHex();
}

QByteArray helloProof(const QByteArray &token, int port, const QByteArray &nonce)
{
	const QByteArray message = QByteArrayLiteral("commentbar-control-hello|") + QByteArray::number(port) + '|' +
				   nonce.toLower();
	return QMessageAuthenticationCode::hash(message, token, QCryptographicHash::Sha256).toHex();
}

bool helloProofHolds(const QByteArray &given, const QByteArray &token, int port, const QByteArray &nonce)
{
	const QByteArray expected = helloProof(token, port, nonce);
	const QByteArray lower = given.toLower();
	if (token.isEmpty() || lower.size() != expected.size())
		return false;
	unsigned char difference = 0;
	for (int i = 0; i < expected.size(); ++i)
		difference |= static_cast<unsigned char>(lower[i] ^ expected[i]);
	return difference == 0;
}
