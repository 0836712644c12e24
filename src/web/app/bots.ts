// Spec §4: errors met by search-engine crawlers and link-preview fetchers are logged, and no error page is shown to
// them (a crawler would index it; a preview would show it as the page's picture).
const botPattern =
  /bot\b|crawler|spider|slurp|googlebot|bingbot|yandex|baiduspider|duckduckbot|applebot|facebookexternalhit|facebot|twitterbot|linkedinbot|slackbot|slack-imgproxy|discordbot|telegrambot|whatsapp|skypeuripreview|pinterest|embedly|redditbot|vkshare|w3c_validator|quora link preview|outbrain|iframely|mastodon|google-inspectiontool|lighthouse|chrome-lighthouse/i;

/** True for the user agent of a search engine or a link-preview service. */
export function isBot(userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent): boolean {
  return botPattern.test(userAgent);
}
