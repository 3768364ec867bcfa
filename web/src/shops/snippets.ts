/**
 * Set-up snippets of the integration page: each sends one custom event to the public
 * POST /push/custom (interface.md §1) with its real parameter names: shop_id, did, sid,
 * event, and the optional category, label and value. A did is 8 to 64 characters of
 * [A-Za-z0-9-], a sid 10 of [A-Za-z0-9] (docs/identity.md). Patron has no SDK package of its own
 * yet, so each platform's snippet is a plain HTTP call in that platform's usual client.
 */
export type SnippetPlatform = 'js' | 'ios' | 'android' | 'react-native';
export const SNIPPET_PLATFORMS: readonly SnippetPlatform[] = ['js', 'ios', 'android', 'react-native'];
export const SNIPPET_LABELS: Readonly<Record<SnippetPlatform, string>> = {
  js: 'JavaScript',
  ios: 'iOS (Swift)',
  android: 'Android (Kotlin)',
  'react-native': 'React Native',
};

export function snippet(platform: SnippetPlatform, origin: string, shopId: string): string {
  const url = `${origin}/push/custom`;
  switch (platform) {
    case 'js':
      return `// A device id kept in this browser, and a session id for this visit.
const did = localStorage.getItem('patron_did') ?? crypto.randomUUID().replaceAll('-', '');
localStorage.setItem('patron_did', did);
const sid = sessionStorage.getItem('patron_sid') ?? crypto.randomUUID().replaceAll('-', '').slice(0, 10);
sessionStorage.setItem('patron_sid', sid);

await fetch('${url}', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ shop_id: '${shopId}', did, sid, event: 'your_event_code', label: 'optional' }),
});`;
    case 'ios':
      return `let did = UIDevice.current.identifierForVendor?.uuidString.replacingOccurrences(of: "-", with: "") ?? UUID().uuidString
let sid = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10))
var request = URLRequest(url: URL(string: "${url}")!)
request.httpMethod = "POST"
request.setValue("application/json", forHTTPHeaderField: "Content-Type")
request.httpBody = try JSONSerialization.data(withJSONObject: [
  "shop_id": "${shopId}", "did": did, "sid": sid, "event": "your_event_code",
])
URLSession.shared.dataTask(with: request).resume()`;
    case 'android':
      return `val did = prefs.getString("patron_did", null) ?: UUID.randomUUID().toString().replace("-", "").also {
    prefs.edit().putString("patron_did", it).apply()
}
val sid = UUID.randomUUID().toString().replace("-", "").take(10)
val body = JSONObject()
    .put("shop_id", "${shopId}").put("did", did).put("sid", sid).put("event", "your_event_code")
    .toString().toRequestBody("application/json".toMediaType())
OkHttpClient().newCall(Request.Builder().url("${url}").post(body).build()).enqueue(callback)`;
    case 'react-native':
      return `import AsyncStorage from '@react-native-async-storage/async-storage';

const did = (await AsyncStorage.getItem('patron_did')) ?? Math.random().toString(16).slice(2) + Date.now().toString(16);
await AsyncStorage.setItem('patron_did', did);
const sid = (Date.now().toString(36) + Math.random().toString(36).slice(2)).slice(0, 10);

await fetch('${url}', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ shop_id: '${shopId}', did, sid, event: 'your_event_code' }),
});`;
  }
}
